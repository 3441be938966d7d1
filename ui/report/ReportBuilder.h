#pragma once

#include "gpusizer/plan/Advisor.h"
#include "gpusizer/plan/Planning.h"
#include "gpusizer/scenario/Catalog.h"
#include "gpusizer/scenario/Scenario.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QString>
#include <functional>
#include <memory>

QT_FORWARD_DECLARE_CLASS(QTextDocument)

namespace gpusizer::ui {

/// What the report is about and when it was made.
struct ReportRequest {
    core::Scenario scenario;
    QString title;         ///< scenario name shown in the title and page header
    QDateTime generatedAt; ///< shown in the title block
    /// The method questionnaire's answers (the advisor tab's), or the defaults when not given.
    core::MethodQuestions methodAnswers;
    /// Dataset, epochs, MFU and prices for the time-and-cost section (the plan tab's, or the defaults).
    core::PlanInputs planInputs;
};

/// Builds the sizing report as a QTextDocument: summary, inputs (defaults marked), breakdown, memory vs sequence,
/// GPU fit, methods side by side, assumptions, formulas and measured accuracy. Charts are vector pictures.
class ReportBuilder final {
    Q_DECLARE_TR_FUNCTIONS(ReportBuilder)

public:
    explicit ReportBuilder(const core::Catalog& catalog);

    /// Progress from 0 to 100 while building (for a progress dialog).
    void setProgressCallback(std::function<void(int)> callback) { m_progress = std::move(callback); }

    /// The document, laid out for `pageWidthPoints` of text width (charts scale to it).
    std::unique_ptr<QTextDocument> build(const ReportRequest& request) const;

    /// The one-paragraph summary at the top of the report (also used by the window's status tip).
    QString summary(const core::Scenario& scenario, const core::PlanInputs& inputs) const;

private:
    void progress(int percent) const;

    const core::Catalog& m_catalog;
    std::function<void(int)> m_progress;
};

} // namespace gpusizer::ui
