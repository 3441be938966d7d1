#pragma once

#include <QtCore/QEvent>
#include <QtWidgets/QLabel>
#include <map>

namespace gpusizer::ui {

/// A word-wrapped label that remembers its height for each width until its text, font or style changes. A layout asks
/// a wrapped label's height for the same few widths many times per pass, and QLabel lays its text out anew on every
/// question: for the Plan tab's long rich-text labels that was a quarter of a slider step (docs/performance.md).
class WrappedLabel final : public QLabel {
public:
    explicit WrappedLabel(QWidget* parent = nullptr) : QLabel(parent) { setWordWrap(true); }

    /// Hides QLabel::setText (not virtual): every text change goes through here and forgets the heights.
    void setText(const QString& text) {
        if (text != QLabel::text()) {
            m_heights.clear();
        }
        QLabel::setText(text);
    }
    void clear() {
        m_heights.clear();
        QLabel::clear();
    }

    int heightForWidth(int width) const override {
        if (const auto it = m_heights.find(width); it != m_heights.end()) {
            return it->second;
        }
        const int height = QLabel::heightForWidth(width);
        m_heights.emplace(width, height);
        return height;
    }

protected:
    void changeEvent(QEvent* event) override {
        if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange ||
            event->type() == QEvent::LanguageChange) {
            m_heights.clear();
        }
        QLabel::changeEvent(event);
    }

private:
    mutable std::map<int, int> m_heights;
};

} // namespace gpusizer::ui
