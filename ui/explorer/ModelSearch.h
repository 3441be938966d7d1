#pragma once

#include <QtCore/QSortFilterProxyModel>
#include <functional>
#include <string>

QT_FORWARD_DECLARE_CLASS(QComboBox)

namespace gpusizer::ui {

/// The model picker's search: the rows whose name or id hold every typed word, in any order
/// (present::matchesQuery), so that "llama 3.1 70b" and "70b llama 3_1" both find Llama-3.1-70B.
class ModelSearchProxy final : public QSortFilterProxyModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelSearchProxy)

public:
    explicit ModelSearchProxy(QObject* parent = nullptr) : QSortFilterProxyModel(parent) {}
    void setQuery(const QString& query);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::string m_query;
};

/// Gives an editable combo box of models that search: a popup of the matches while typing; Enter takes the first
/// match, or, when nothing matches, puts the box back as it was (`reset`). `choose` receives the item's data (id).
void makeModelSearch(QComboBox* box, const std::function<void(const QString& id)>& choose,
                     const std::function<void()>& reset);

} // namespace gpusizer::ui
