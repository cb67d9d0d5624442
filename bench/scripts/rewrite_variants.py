#!/usr/bin/env python3
"""Writes the MD variants of bench/scripts/rewrite-bench.sh from dl-annotate's rewrite of
the MD kernel with ASTA forced (bench/apps/annotated/variants/md_asta.cl):

  md_asta_fulltile.cl  the field stride of every tile is the constant w (exact only when
                       n % T == 0)
  md_asta_scalar.cl    the four accumulated fields summed in registers in the inner loop
                       and added to fv once after it (scalar replacement by hand)

  rewrite_variants.py <md_asta.cl> <output dir>
"""
import os
import sys

TILED = "return b * r + (n - b < w ? n - b : w) * o + (i - b) * z;"


def fulltile(src):
    if src.count(TILED) != 1:
        sys.exit("rewrite_variants: dl_tiled's body not found")
    return src.replace(TILED, "return b * r + w * o + (i - b) * z; /* variant: every tile full */")


def scalar(src):
    lines = src.split("\n")
    j = next(i for i, l in enumerate(lines) if l.strip().startswith("for (int j = 0; j < PAR; ++j)"))
    acc = [i for i in range(j, j + 30) if "DL_REF(__global, float, fv" in lines[i] and "+=" in lines[i]]
    if len(acc) != 4 or lines[acc[-1] + 1].strip() != "}":
        sys.exit("rewrite_variants: the four accumulations of fv not found")
    stores = []
    for k, i in enumerate(acc):
        lhs, rhs = lines[i].split("+=", 1)
        stores.append("      " + lhs.strip() + " += dl_acc[%d];" % k)
        lines[i] = "        dl_acc[%d] += %s" % (k, rhs.strip())
    lines[acc[-1] + 2:acc[-1] + 2] = stores
    lines.insert(j, "      float dl_acc[4] = {0.0f, 0.0f, 0.0f, 0.0f}; /* variant: scalar replacement */")
    return "\n".join(lines)


def main():
    src = open(sys.argv[1]).read()
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, make in (("md_asta_fulltile.cl", fulltile), ("md_asta_scalar.cl", scalar)):
        with open(os.path.join(sys.argv[2], name), "w") as f:
            f.write(make(src))


if __name__ == "__main__":
    main()
