#pragma once
// gpusizer-cli as a library: one command per file (see Commands.h), called in process by main() and by the tests.

#include <iosfwd>
#include <string>
#include <vector>

namespace gpusizer::cli {

/// Exit statuses of gpusizer-cli.
enum ExitCode : int {
    kOk = 0,
    kUsage = 1,    ///< unknown command or option, missing argument
    kBadInput = 2, ///< unreadable file, malformed JSON, invalid field (the message names it)
    kOutputFailed = 3,
};

/// Runs one CLI invocation (arguments without the program name); writes results to out, problems to err.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace gpusizer::cli
