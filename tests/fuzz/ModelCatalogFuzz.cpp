// libFuzzer target: a model catalog file; every model it accepts sizes as the default LoRA scenario.
#include "FuzzSupport.h"
#include "gpusizer/scenario/Catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gpusizer;
    const auto loaded = core::loadModelCatalog(fuzz::bytesOf(data, size), "models-fuzz.json");
    if (loaded) {
        for (const auto& model : loaded->entries) {
            core::Scenario s = core::defaultScenario(fuzz::catalog());
            // Inline, not by id: a saved scenario names a catalog model by id, and reopening it against the shipped
            // catalog would read the shipped entry of that id, not the fuzzed one.
            s.modelId.clear();
            s.model = model.arch;
            if (core::validate(s)) { // a model may be too large for the default batch: refused in words is fine
                fuzz::checkAccepted(s);
            }
        }
    }
    return 0;
}
