#pragma once

#include "gpusizer/catalogs/ShippedCatalogs.h"

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

/// The shipped catalogs and the user's catalog folder; problems with the user's files are warnings on err.
catalogs::LoadedCatalog loadCatalogs(std::ostream& err);

/// Runs one CLI invocation (arguments without the program name); writes results to out, problems to err.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace gpusizer::cli
