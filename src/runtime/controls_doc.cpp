// dl_controls_doc: prints docs/controls.md (generated from controls.def) or writes it to argv[1].
#include <fstream>
#include <iostream>

#include "controls.hpp"

int main(int argc, char** argv) {
  const std::string text = dl::rt::controls_markdown();
  if (argc < 2) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << text;
  return out ? 0 : 1;
}
