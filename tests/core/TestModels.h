#pragma once
// Architectures used by several tests, copied from the models' config.json files (public facts).

#include "gpusizer/catalogs/ShippedCatalogs.h"
#include "gpusizer/core/ModelArch.h"

namespace gpusizer::fixtures {

/// meta-llama/Llama-2-7b-hf config.json.
inline core::ModelArch llama2_7b() {
    core::ModelArch a;
    a.name = "Llama-2-7B";
    a.hiddenSize = 4096;
    a.numLayers = 32;
    a.numHeads = 32;
    a.numKvHeads = 32;
    a.intermediateSize = 11008;
    a.vocabSize = 32000;
    return a;
}

/// meta-llama/Llama-3.2-3B config.json (tied embeddings).
inline core::ModelArch llama32_3b() {
    core::ModelArch a;
    a.name = "Llama-3.2-3B";
    a.hiddenSize = 3072;
    a.numLayers = 28;
    a.numHeads = 24;
    a.numKvHeads = 8;
    a.intermediateSize = 8192;
    a.vocabSize = 128256;
    a.tiedEmbeddings = true;
    return a;
}

/// meta-llama/Llama-3.1-8B config.json.
inline core::ModelArch llama31_8b() {
    core::ModelArch a;
    a.name = "Llama-3.1-8B";
    a.hiddenSize = 4096;
    a.numLayers = 32;
    a.numHeads = 32;
    a.numKvHeads = 8;
    a.intermediateSize = 14336;
    a.vocabSize = 128256;
    return a;
}

/// The shipped catalogs, loaded once per test program.
inline const core::Catalog& catalog() {
    static const auto loaded = catalogs::loadCatalogs();
    return loaded.catalog;
}

} // namespace gpusizer::fixtures
