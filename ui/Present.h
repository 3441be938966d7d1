#pragma once
// The presentation layer's words in the window: message texts translated (context "gpusizer"), then filled in.

#include "gpusizer/present/Message.h"

#include <QtCore/QString>
#include <vector>

namespace gpusizer::ui {

/// The message translated and with its arguments substituted.
QString text(const present::Message& message);
/// Messages translated and joined with ", ".
QString text(const std::vector<present::Message>& parts);
/// A plain string from the presentation layer (already formatted numbers).
inline QString text(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace gpusizer::ui
