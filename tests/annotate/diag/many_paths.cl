// ARGS: --report
// EXIT: 0
// EXPECT: pattern: irregular: a record index the analysis cannot name
// Variables that reach each other through many paths (each from the two before it): the
// classification follows a bounded number of values (it took minutes unbounded).
typedef struct {
  float a, b;
} rec;

//DL: AoS: p[n]
__kernel void k(__global rec *p, int n) {
  int v0 = get_global_id(0), v1 = get_global_id(0);
  int v2 = v1 + v0;
  v2 = v0 - v1;
  int v3 = v2 + v1;
  v3 = v1 - v2;
  int v4 = v3 + v2;
  v4 = v2 - v3;
  int v5 = v4 + v3;
  v5 = v3 - v4;
  int v6 = v5 + v4;
  v6 = v4 - v5;
  int v7 = v6 + v5;
  v7 = v5 - v6;
  int v8 = v7 + v6;
  v8 = v6 - v7;
  int v9 = v8 + v7;
  v9 = v7 - v8;
  int v10 = v9 + v8;
  v10 = v8 - v9;
  int v11 = v10 + v9;
  v11 = v9 - v10;
  int v12 = v11 + v10;
  v12 = v10 - v11;
  int v13 = v12 + v11;
  v13 = v11 - v12;
  int v14 = v13 + v12;
  v14 = v12 - v13;
  int v15 = v14 + v13;
  v15 = v13 - v14;
  int v16 = v15 + v14;
  v16 = v14 - v15;
  int v17 = v16 + v15;
  v17 = v15 - v16;
  int v18 = v17 + v16;
  v18 = v16 - v17;
  int v19 = v18 + v17;
  v19 = v17 - v18;
  int v20 = v19 + v18;
  v20 = v18 - v19;
  int v21 = v20 + v19;
  v21 = v19 - v20;
  int v22 = v21 + v20;
  v22 = v20 - v21;
  int v23 = v22 + v21;
  v23 = v21 - v22;
  int v24 = v23 + v22;
  v24 = v22 - v23;
  int v25 = v24 + v23;
  v25 = v23 - v24;
  int v26 = v25 + v24;
  v26 = v24 - v25;
  int v27 = v26 + v25;
  v27 = v25 - v26;
  int v28 = v27 + v26;
  v28 = v26 - v27;
  int v29 = v28 + v27;
  v29 = v27 - v28;
  int v30 = v29 + v28;
  v30 = v28 - v29;
  int v31 = v30 + v29;
  v31 = v29 - v30;
  int v32 = v31 + v30;
  v32 = v30 - v31;
  int v33 = v32 + v31;
  v33 = v31 - v32;
  int v34 = v33 + v32;
  v34 = v32 - v33;
  int v35 = v34 + v33;
  v35 = v33 - v34;
  int v36 = v35 + v34;
  v36 = v34 - v35;
  int v37 = v36 + v35;
  v37 = v35 - v36;
  int v38 = v37 + v36;
  v38 = v36 - v37;
  int v39 = v38 + v37;
  v39 = v37 - v38;
  p[v39].a += 1.0f;
}
