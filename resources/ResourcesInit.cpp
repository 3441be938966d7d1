#include "gpusizer/resources/Resources.h"

#include <QtCore/QtGlobal>

// Q_INIT_RESOURCE declares the generated initializer in the enclosing namespace: call it from the global one.
static void initGpuSizerResources() {
    Q_INIT_RESOURCE(gpusizer_resources);
}

namespace gpusizer::resources {

void initialize() {
    initGpuSizerResources();
}

} // namespace gpusizer::resources
