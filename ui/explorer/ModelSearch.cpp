#include "ModelSearch.h"

#include "gpusizer/present/Search.h"

#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QLineEdit>

namespace gpusizer::ui {

void ModelSearchProxy::setQuery(const QString& query) {
    m_query = query.toStdString();
    invalidateFilter();
}

bool ModelSearchProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const QString haystack =
        index.data(Qt::DisplayRole).toString() + QLatin1Char(' ') + index.data(Qt::UserRole).toString();
    return present::matchesQuery(haystack.toStdString(), m_query);
}

void makeModelSearch(QComboBox* box, const std::function<void(const QString& id)>& choose,
                     const std::function<void()>& reset) {
    auto* proxy = new ModelSearchProxy(box);
    proxy->setSourceModel(box->model());
    auto* completer = new QCompleter(proxy, box);
    completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion); // the proxy filters
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    box->setCompleter(completer);
    QObject::connect(box->lineEdit(), &QLineEdit::textEdited, proxy, [proxy, completer](const QString& text) {
        proxy->setQuery(text);
        completer->complete();
    });
    QObject::connect(completer, qOverload<const QModelIndex&>(&QCompleter::activated), box,
                     [choose](const QModelIndex& index) { choose(index.data(Qt::UserRole).toString()); });
    // Enter: the first match, else back to the current model (the numbers never disagree with the box).
    QObject::connect(box->lineEdit(), &QLineEdit::returnPressed, box, [box, proxy, choose, reset] {
        proxy->setQuery(box->lineEdit()->text());
        if (proxy->rowCount() > 0) {
            choose(proxy->index(0, 0).data(Qt::UserRole).toString());
        }
        reset();
    });
}

} // namespace gpusizer::ui
