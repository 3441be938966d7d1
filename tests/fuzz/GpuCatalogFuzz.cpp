// libFuzzer target: a GPU catalog file (shipped or the user's); every entry it accepts has a positive usable memory.
#include "FuzzSupport.h"
#include "gpusizer/scenario/Catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const auto loaded = core::loadGpuCatalog(fuzz::bytesOf(data, size), "gpus-fuzz.json");
    if (loaded) {
        for (const auto& gpu : loaded->entries) {
            fuzz::require(gpu.usableBytes() > 0, "an accepted card has usable memory");
        }
    }
    return 0;
}
