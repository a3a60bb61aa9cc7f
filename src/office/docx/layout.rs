//! Page frames and column sets: how the body's sections are cut into what
//! [`super::render`] draws.
//!
//! There is no line layout, so a page frame is what lies between two page starts: a
//! section that starts on a new page, a page break, `w:pageBreakBefore`. Inside a frame
//! each section keeps its own column set (ECMA-376 §17.6.22: a continuous section break
//! starts a new set of columns on the same page, and the columns above it are balanced).
//! A continuous section on other paper starts a new page, as Word does. Column breaks
//! end a column of a multi-column section and act as page breaks in a one-column one
//! (§17.3.3.1).

use std::ops::Range;

use super::model::{Block, BreakKind, Inline, Paragraph, Section, SectionStart};

/// One page frame.
pub(super) struct Page<'d> {
    /// The section whose paper, margins and headers the frame uses (the one that
    /// started it).
    pub section: usize,
    /// Index of the page within its section (0 = the section's first page).
    pub index_in_section: usize,
    /// The column sets on the page, top to bottom: never empty.
    pub sets: Vec<ColumnSet<'d>>,
}

/// A run of one section's blocks on one page, laid out in that section's columns.
pub(super) struct ColumnSet<'d> {
    /// Index of the section.
    pub section: usize,
    /// Content in order.
    pub items: Vec<PageItem<'d>>,
}

/// Content of a column set.
pub(super) enum PageItem<'d> {
    /// A whole block.
    Block(&'d Block),
    /// Part of a paragraph split at a page or column break: the inlines in `range`;
    /// `true` for the first part (which has the list label and the space before).
    Split(&'d Paragraph, Range<usize>, bool),
    /// What follows starts the next column.
    ColumnBreak,
}

impl Page<'_> {
    fn has_content(&self) -> bool {
        self.sets.iter().any(|s| !s.items.is_empty())
    }
}

/// Cuts `sections` into page frames (see the module notes).
pub(super) fn paginate(sections: &[Section]) -> Vec<Page<'_>> {
    let mut pages: Vec<Page<'_>> = Vec::new();
    for (s, section) in sections.iter().enumerate() {
        let same_page = matches!(
            section.start,
            SectionStart::Continuous | SectionStart::NextColumn
        ) && pages
            .last()
            .and_then(|p| sections.get(p.section))
            .is_some_and(|prev| same_paper(prev, section));
        match pages.last_mut() {
            Some(page) if same_page => page.sets.push(ColumnSet {
                section: s,
                items: Vec::new(),
            }),
            _ => pages.push(new_page(s, 0)),
        }
        let mut in_section = 0;
        let columns = section.page.columns > 1;
        for block in &section.blocks {
            let Block::Paragraph(p) = block else {
                push(&mut pages, PageItem::Block(block));
                continue;
            };
            if p.format.page_break_before && pages.last().is_some_and(Page::has_content) {
                in_section += 1;
                pages.push(new_page(s, in_section));
            }
            let breaks: Vec<(usize, bool)> = p
                .inlines
                .iter()
                .enumerate()
                .filter_map(|(i, inline)| match inline {
                    Inline::Break {
                        kind: BreakKind::Page,
                    } => Some((i, true)),
                    Inline::Break {
                        kind: BreakKind::Column,
                    } => Some((i, !columns)),
                    _ => None,
                })
                .collect();
            if breaks.is_empty() {
                push(&mut pages, PageItem::Block(block));
                continue;
            }
            let mut start = 0;
            for (k, &(at, new_page_break)) in breaks.iter().enumerate() {
                if at > start || k == 0 {
                    push(&mut pages, PageItem::Split(p, start..at, k == 0));
                }
                if new_page_break {
                    in_section += 1;
                    pages.push(new_page(s, in_section));
                } else {
                    push(&mut pages, PageItem::ColumnBreak);
                }
                start = at + 1;
            }
            let rest_visible = p
                .inlines
                .get(start..)
                .is_some_and(|r| !r.iter().all(super::render::is_invisible));
            if rest_visible {
                push(
                    &mut pages,
                    PageItem::Split(p, start..p.inlines.len(), false),
                );
            }
        }
    }
    pages
}

fn new_page<'d>(section: usize, index_in_section: usize) -> Page<'d> {
    Page {
        section,
        index_in_section,
        sets: vec![ColumnSet {
            section,
            items: Vec::new(),
        }],
    }
}

/// Appends to the last column set of the last page.
fn push<'d>(pages: &mut [Page<'d>], item: PageItem<'d>) {
    if let Some(set) = pages.last_mut().and_then(|p| p.sets.last_mut()) {
        set.items.push(item);
    }
}

/// Whether two sections can share a page: the same paper size and orientation.
fn same_paper(a: &Section, b: &Section) -> bool {
    (a.page.width - b.page.width).abs() < 0.5
        && (a.page.height - b.page.height).abs() < 0.5
        && a.page.landscape == b.page.landscape
}

/// How a column set is drawn.
#[derive(Debug, PartialEq)]
pub(super) enum ColumnLayout {
    /// One column: the blocks go straight into the page body.
    Single,
    /// Equal columns: CSS multi-column, balanced (`column-fill: balance`).
    Equal,
    /// Unequal columns split at column breaks: a grid of explicit columns, one
    /// chunk of content each.
    Grid,
}

/// The layout of a column set: unequal widths need a grid, which can only show columns
/// the document ends with breaks (without line layout there is no other place to cut);
/// unequal columns without any break are drawn as equal ones.
pub(super) fn column_layout(section: &Section, set: &ColumnSet<'_>) -> ColumnLayout {
    if section.page.columns <= 1 {
        ColumnLayout::Single
    } else if section.column_widths.len() > 1
        && set.items.iter().any(|i| matches!(i, PageItem::ColumnBreak))
    {
        ColumnLayout::Grid
    } else {
        ColumnLayout::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::office::docx::model::{ColumnWidth, PageSetup};

    fn para(inlines: Vec<Inline>) -> Block {
        Block::Paragraph(Paragraph {
            inlines,
            ..Paragraph::default()
        })
    }

    fn text(t: &str) -> Inline {
        Inline::Text {
            text: t.to_owned(),
            format: Default::default(),
        }
    }

    fn section(columns: u16, start: SectionStart, blocks: Vec<Block>) -> Section {
        Section {
            page: PageSetup {
                columns,
                ..PageSetup::default()
            },
            start,
            blocks,
            ..Section::default()
        }
    }

    #[test]
    fn continuous_sections_share_a_page_in_sets_of_their_own() {
        let sections = vec![
            section(1, SectionStart::NextPage, vec![para(vec![text("title")])]),
            section(2, SectionStart::Continuous, vec![para(vec![text("body")])]),
            section(1, SectionStart::Continuous, vec![para(vec![text("end")])]),
            section(3, SectionStart::NextPage, vec![para(vec![text("next")])]),
        ];
        let pages = paginate(&sections);
        assert_eq!(pages.len(), 2);
        let sets: Vec<usize> = pages[0].sets.iter().map(|s| s.section).collect();
        assert_eq!(sets, [0, 1, 2]);
        assert!(pages[0].sets.iter().all(|s| s.items.len() == 1));
        assert_eq!(pages[1].section, 3);
        assert_eq!(pages[1].sets.len(), 1);
    }

    #[test]
    fn a_continuous_section_on_other_paper_starts_a_page() {
        let mut wide = section(1, SectionStart::Continuous, vec![para(vec![text("b")])]);
        wide.page.width = 792.0;
        wide.page.height = 612.0;
        wide.page.landscape = true;
        let sections = vec![
            section(1, SectionStart::NextPage, vec![para(vec![text("a")])]),
            wide,
        ];
        assert_eq!(paginate(&sections).len(), 2);
    }

    #[test]
    fn column_breaks_split_paragraphs_or_act_as_page_breaks() {
        let broken = || {
            vec![para(vec![
                text("left"),
                Inline::Break {
                    kind: BreakKind::Column,
                },
                text("right"),
            ])]
        };
        let two = [section(2, SectionStart::NextPage, broken())];
        let pages = paginate(&two);
        assert_eq!(pages.len(), 1);
        let items = &pages[0].sets[0].items;
        assert!(matches!(
            items.as_slice(),
            [
                PageItem::Split(_, a, true),
                PageItem::ColumnBreak,
                PageItem::Split(_, b, false)
            ] if *a == (0..1) && *b == (2..3)
        ));
        assert_eq!(
            column_layout(&two[0], &pages[0].sets[0]),
            ColumnLayout::Equal
        );
        let mut unequal = two;
        unequal[0].column_widths = vec![
            ColumnWidth {
                width: 100.0,
                space: 20.0,
            },
            ColumnWidth {
                width: 300.0,
                space: 0.0,
            },
        ];
        let pages = paginate(&unequal);
        assert_eq!(
            column_layout(&unequal[0], &pages[0].sets[0]),
            ColumnLayout::Grid
        );
        let one = [section(1, SectionStart::NextPage, broken())];
        assert_eq!(paginate(&one).len(), 2);
    }
}
