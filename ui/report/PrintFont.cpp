#include "PrintFont.h"

#include <QtCore/QStringList>

namespace gpusizer::ui {

QFont printFont(QFont font) {
    font.setFamilies(
        {QStringLiteral("DejaVu Sans"), QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("WenQuanYi Zen Hei")});
    return font;
}

} // namespace gpusizer::ui
