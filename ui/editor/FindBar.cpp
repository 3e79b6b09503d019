#include "ui/editor/FindBar.h"

#include <Qsci/qsciscintilla.h>

#include <QCheckBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace ps::ui {

FindBar::FindBar(QsciScintilla* editor, QWidget* parent) : QWidget(parent), m_editor(editor)
{
    m_text = new QLineEdit;
    m_text->setPlaceholderText(tr("Find"));
    m_text->setClearButtonEnabled(true);
    m_case = new QCheckBox(tr("Match case"));
    m_status = new QLabel;
    auto* prev = new QToolButton;
    prev->setText(tr("Previous"));
    prev->setToolTip(tr("Find previous (Shift+F3)"));
    auto* next = new QToolButton;
    next->setText(tr("Next"));
    next->setToolTip(tr("Find next (F3)"));
    auto* close = new QToolButton;
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_text, 1);
    layout->addWidget(prev);
    layout->addWidget(next);
    layout->addWidget(m_case);
    layout->addWidget(m_status);
    layout->addWidget(close);

    connect(m_text, &QLineEdit::textEdited, this, [this]() { find(true, true); });
    connect(m_text, &QLineEdit::returnPressed, this, [this]() {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
    });
    connect(prev, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(close, &QToolButton::clicked, this, [this]() {
        hide();
        m_editor->setFocus();
    });
    hide();
}

void FindBar::activate()
{
    if (m_editor->hasSelectedText() && !m_editor->selectedText().contains('\n'))
        m_text->setText(m_editor->selectedText());
    show();
    m_text->setFocus();
    m_text->selectAll();
}

void FindBar::setText(const QString& text)
{
    m_text->setText(text);
}

QString FindBar::status() const
{
    return m_status->text();
}

bool FindBar::findNext()
{
    return find(true, false);
}

bool FindBar::findPrevious()
{
    return find(false, true);
}

bool FindBar::find(bool forward, bool fromSelectionStart)
{
    const QString text = m_text->text();
    if (text.isEmpty()) {
        m_status->clear();
        return false;
    }
    int line = -1, index = -1;
    if (fromSelectionStart && m_editor->hasSelectedText()) {
        int l2, i2;
        m_editor->getSelection(&line, &index, &l2, &i2);
    }
    const bool found = m_editor->findFirst(text, false, m_case->isChecked(), false, true, forward, line, index);
    m_status->setText(found ? QString() : tr("not found"));
    return found;
}

void FindBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace ps::ui
