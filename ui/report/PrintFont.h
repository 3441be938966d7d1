#pragma once

#include <QtGui/QFont>

namespace gpusizer::ui {

/// `font` for print: DejaVu Sans, then a CJK family whose character map gives each glyph one code point. Noto Sans
/// CJK (the system's usual fallback) maps the Kangxi radicals U+2F00-2FD5 to the same glyphs as the ideographs, and
/// Qt's PDF writer names each glyph by the lowest code point that reaches it (QFontSubset::getReverseMap), so 用
/// extracted as ⽤ and a search of the PDF found nothing. WenQuanYi Micro Hei maps no radicals, Zen Hei draws them
/// apart.
QFont printFont(QFont font);

} // namespace gpusizer::ui
