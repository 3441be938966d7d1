#pragma once

#include "gpusizer/scenario/DatasetLengths.h"

#include <QtWidgets/QDialog>

QT_FORWARD_DECLARE_CLASS(QComboBox)
QT_FORWARD_DECLARE_CLASS(QLabel)

namespace gpusizer::ui {

/// Your data's lengths before they set the scenario: the summary, the histogram, and what to size by (the longest
/// example, p99 or p95) with the examples and tokens each choice cuts and the tokens it trains.
class LengthsDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LengthsDialog)

public:
    LengthsDialog(const core::DatasetLengths& lengths, QWidget* parent);
    ~LengthsDialog() override;

    core::LengthBasis basis() const;
    void setBasis(core::LengthBasis basis);
    /// For tests: what the choice's line says now.
    QString choiceText() const;

private:
    void showChoice();

    core::DatasetLengths m_lengths;
    QComboBox* m_basis = nullptr;
    QLabel* m_choice = nullptr;
};

} // namespace gpusizer::ui
