// EXIT: 1
// INPUT: ../golden/paper.expected.cl
// EXPECT: paper.expected.cl:10:1: error: this file is dl-annotate's output (it defines DL_ANNOTATE_HELPERS): run dl-annotate on the original source
