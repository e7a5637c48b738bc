#include "app/cli/commands.h"

int main(int argc, char** argv) { return esv::runCommandLine(argc, argv); }
