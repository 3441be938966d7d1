#include "Present.h"

#include <QtCore/QCoreApplication>
#include <string_view>

namespace gpusizer::ui {

QString text(const present::Message& message) {
    if (message.text == nullptr || *message.text == '\0') {
        return QString::fromStdString(message.literal);
    }
    if (std::string_view(message.text) == present::kListId) {
        return text(message.args);
    }
    std::vector<std::string> args;
    args.reserve(message.args.size());
    for (const auto& a : message.args) {
        args.push_back(text(a).toStdString());
    }
    const QString translated = QCoreApplication::translate(present::kContext, message.text);
    return QString::fromStdString(core::substitute(translated.toStdString(), args));
}

QString text(const std::vector<present::Message>& parts) {
    QString out;
    for (const auto& p : parts) {
        out += (out.isEmpty() ? QString() : QCoreApplication::translate("gpusizer", ", ")) + text(p);
    }
    return out;
}

} // namespace gpusizer::ui
