// ARGS: --auto --report
// INPUT: ../golden/auto.cl
// EXIT: 0
// EXPECT: kernel integrate (line 13): transformed
// EXPECT: inferred annotation: //DL: AoS: p[*]
// EXPECT: p: records of struct particle, n = the whole buffer
// EXPECT: inferred annotation: //DL: AoS: const g[*][5]
// EXPECT: g: records of 5 float (stride of its index), n = the whole buffer
// EXPECT: w: not inferred: scalars indexed without a record stride
// EXPECT: kernel 'opaque' is left untransformed: no annotation is inferred for it
// EXPECT: kernel opaque (line 31): left untransformed: accesses dl-annotate cannot prove
// The report of an --auto run says, per pointer argument, what was inferred or why not.
