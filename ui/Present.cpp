#include "Present.h"

#include <QtCore/QCoreApplication>

namespace gpusizer::ui {

QString text(const present::Message& message) {
    const QString translated = QCoreApplication::translate(present::kContext, message.text);
    return QString::fromStdString(present::substitute(translated.toStdString(), message.args));
}

QString text(const std::vector<present::Message>& parts) {
    QString out;
    for (const auto& p : parts) {
        out += (out.isEmpty() ? QString() : QCoreApplication::translate(present::kContext, ", ")) + text(p);
    }
    return out;
}

} // namespace gpusizer::ui
