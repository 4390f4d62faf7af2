//! Where a run's cases come from: the suite embedded in the runner, or a folder of case files.
//! The runner, `coverage`, `diff` and the library's `Gate` all load through [`load_cases`].

use std::path::PathBuf;

use crate::model::Loaded;

/// Where the cases come from without `--cases`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The suite embedded in the runner when it was built ([`crate::suite`]).
    Embedded,
    /// A folder of case files.
    Dir(PathBuf),
}

/// Loads the `--cases` folder, or the default suite; with how messages name it (the folder,
/// or "the embedded suite").
pub fn load_cases(cases: Option<PathBuf>, default_cases: &Source) -> Result<(String, Vec<Loaded>), String> {
    let explicit = cases.is_some();
    let dir = match (cases, default_cases) {
        (Some(dir), _) => dir,
        (None, Source::Dir(dir)) => dir.clone(),
        (None, Source::Embedded) => return Ok((crate::suite::LABEL.to_string(), crate::suite::load())),
    };
    if dir.is_dir() {
        let loaded = crate::loader::load_dir(&dir)?;
        Ok((dir.display().to_string(), loaded))
    } else if explicit {
        Err(format!("no cases folder at {}", dir.display()))
    } else {
        Err(format!("no cases folder at {}: run from the repository's root, or give --cases DIR", dir.display()))
    }
}
