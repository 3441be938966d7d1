// gpusizer-cli: the estimator without a display. See `gpusizer-cli help`.
#include "Cli.h"

#include <iostream>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return gpusizer::cli::run(args, std::cout, std::cerr);
}
