#pragma once

#include "gpusizer/scenario/DatasetLengths.h"

#include <QtCharts/QChartView>

QT_FORWARD_DECLARE_CLASS(QBarSet)

namespace gpusizer::ui {

/// The user's data: examples per length bin (powers of two), so the longest sequences stand out from the bulk.
class LengthsChartView final : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LengthsChartView)

public:
    explicit LengthsChartView(const core::DatasetLengths& lengths, QWidget* parent = nullptr);
    ~LengthsChartView() override;

    /// For tests: the plotted examples per bin, in order.
    QList<qreal> counts() const;

private:
    QBarSet* m_set = nullptr;
};

} // namespace gpusizer::ui
