//! A launch file being read, and what goes wrong reading one: below both the loader and the
//! schema check, which report errors at a file's elements.

use roxmltree::Node as El;
use thiserror::Error;

use super::subst::SubstError;

#[derive(Debug, Error)]
pub enum LaunchError {
    #[error("{file}: {source}")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}: not well-formed XML: {source}")]
    Xml {
        file: String,
        source: roxmltree::Error,
    },
    #[error("{at}: {what}")]
    At { at: String, what: String },
    #[error("{at}: {source}")]
    Subst { at: String, source: SubstError },
    #[error("malformed launch argument {0:?}: expected name:=value")]
    BadArgument(String),
    #[error("launch argument(s) {given} not declared by any <arg> (declared: {declared})")]
    Undeclared { given: String, declared: String },
}

/// The file being read.
pub(super) struct File<'a, 'i> {
    pub(super) doc: &'a roxmltree::Document<'i>,
    pub(super) path: String,
    pub(super) dir: String,
    pub(super) name: String,
}

impl File<'_, '_> {
    pub(super) fn at(&self, el: El) -> String {
        let pos = self.doc.text_pos_at(el.range().start);
        format!("{}:{}", self.path, pos.row)
    }

    pub(super) fn err(&self, el: El, what: impl Into<String>) -> LaunchError {
        LaunchError::At {
            at: self.at(el),
            what: what.into(),
        }
    }
}
