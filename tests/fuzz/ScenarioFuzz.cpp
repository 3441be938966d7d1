// libFuzzer target: the scenario loader, then the estimate and the save/reopen round trip of what it accepts.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const auto parsed = core::parseScenario(fuzz::bytesOf(data, size), "fuzz.json", fuzz::catalog());
    if (parsed) {
        fuzz::checkAccepted(parsed->scenario);
    }
    return 0;
}
