/* gpuprobe: the command-line front end.  The commands and their options
 * are one table (app/commands.c), parsed by one parser (app/cli.c). */
#include "cli.h"

int main(int argc, char **argv) { return gp_cli_main(argc, argv); }
