#include "LengthsDialog.h"

#include "Present.h"
#include "charts/LengthsChartView.h"
#include "gpusizer/present/LengthsText.h"

#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace gpusizer::ui {

LengthsDialog::LengthsDialog(const core::DatasetLengths& lengths, QWidget* parent)
    : QDialog(parent), m_lengths(lengths) {
    setWindowTitle(tr("Your data's lengths"));
    auto* layout = new QVBoxLayout(this);
    auto* summary = new QLabel(ui::text(present::lengthsSummary(lengths)), this);
    summary->setWordWrap(true);
    layout->addWidget(summary);
    layout->addWidget(new LengthsChartView(lengths, this), 1);

    auto* form = new QFormLayout();
    m_basis = new QComboBox(this);
    m_basis->setObjectName(QStringLiteral("lengthsBasis"));
    for (const auto basis : {core::LengthBasis::Longest, core::LengthBasis::P99, core::LengthBasis::P95}) {
        m_basis->addItem(ui::text(present::basisName(basis)), static_cast<int>(basis));
    }
    m_basis->setToolTip(tr("Memory is sized for the sequence length: the longest example cuts nothing; a percentile "
                           "truncates the examples above it."));
    auto* label = new QLabel(tr("Size &by:"), this);
    label->setBuddy(m_basis);
    form->addRow(label, m_basis);
    layout->addLayout(form);
    m_choice = new QLabel(this);
    m_choice->setWordWrap(true);
    m_choice->setObjectName(QStringLiteral("lengthsChoice"));
    layout->addWidget(m_choice);
    auto* note = new QLabel(tr("The scenario keeps these lengths; the Plan tab prices their tokens unless you state "
                               "others."),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Set the sequence length"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_basis, &QComboBox::currentIndexChanged, this, [this] { showChoice(); });
    showChoice();
    m_basis->setFocus();
    resize(640, 560);
}

LengthsDialog::~LengthsDialog() = default;

core::LengthBasis LengthsDialog::basis() const {
    return static_cast<core::LengthBasis>(m_basis->currentData().toInt());
}

void LengthsDialog::setBasis(core::LengthBasis basis) {
    m_basis->setCurrentIndex(m_basis->findData(static_cast<int>(basis)));
}

QString LengthsDialog::choiceText() const {
    return m_choice->text();
}

void LengthsDialog::showChoice() {
    m_choice->setText(ui::text(present::lengthsChoice(m_lengths, basis())) + QStringLiteral("\n") +
                      ui::text(present::lengthsBatching(m_lengths, basis())));
}

} // namespace gpusizer::ui
