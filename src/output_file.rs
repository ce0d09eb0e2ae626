//! The one way the tools write a file. The path is checked before the work starts (its
//! directory takes new files; an existing file is replaced only with `--force`, or kept and
//! added to with `--append` once its caller has checked the format). The bytes go to a
//! temporary file beside it, renamed into place once whole, so a job that dies, even by
//! `kill -9`, leaves the file that was there as it was.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// What may happen to a file already at the output path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Nothing: the command is refused, and the error names `--force`.
    Refuse,
    /// It is replaced (`--force`).
    Replace,
    /// Its content is kept and added to (`--append`).
    Append,
}

impl Existing {
    /// `Replace` when `force` is given, else `Refuse`.
    pub fn replace_if(force: bool) -> Existing {
        if force {
            Existing::Replace
        } else {
            Existing::Refuse
        }
    }
}

/// An output path that passed the checks.
#[derive(Clone, Debug)]
pub struct OutputPath {
    /// Where the bytes go: the path given, or the file a symbolic link there points to.
    path: PathBuf,
    /// As the user wrote it, for messages.
    shown: String,
    mode: Existing,
}

impl OutputPath {
    /// Checks `path`, named by the option `flag` in messages: its directory exists and a file
    /// can be made in it, it is not a directory, and a file there (not empty) is allowed by
    /// `mode`.
    pub fn check(path: impl AsRef<Path>, flag: &str, mode: Existing) -> Result<OutputPath, String> {
        let given = path.as_ref();
        let shown = given.display().to_string();
        if given.as_os_str().is_empty() {
            return Err(format!("{flag}: an empty file name"));
        }
        let metadata = std::fs::metadata(given).ok();
        if metadata.as_ref().is_some_and(|m| m.is_dir()) {
            return Err(format!("{flag} {shown} is a directory, not a file"));
        }
        // Written beside a link's target, so the link stays a link.
        let path = match std::fs::canonicalize(given) {
            Ok(real) if metadata.is_some() => real,
            _ => given.to_path_buf(),
        };
        let existing = metadata.is_some_and(|m| m.len() > 0);
        if existing && mode == Existing::Refuse {
            return Err(format!(
                "{flag} {shown} exists; give --force to replace it, or choose another name"
            ));
        }
        let checked = OutputPath { path, shown, mode };
        // The real test of the directory: make a file there (and remove it).
        checked.temporary()?;
        Ok(checked)
    }

    /// The path as the user gave it.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// A file to write, beside the output; in `Append` mode it starts with a copy of the
    /// existing file.
    pub fn create(&self) -> Result<OutputFile, String> {
        let mut temporary = self.temporary()?;
        if self.mode == Existing::Append && self.path.exists() {
            let mut old = File::open(&self.path).map_err(|e| self.error("cannot read", e))?;
            std::io::copy(&mut old, temporary.as_file_mut())
                .map_err(|e| self.error("cannot copy", e))?;
        }
        Ok(OutputFile {
            writer: BufWriter::with_capacity(1 << 20, temporary),
            target: self.clone(),
        })
    }

    /// Writes `bytes` as the whole file.
    pub fn write(&self, bytes: &[u8]) -> Result<(), String> {
        let mut file = self.create()?;
        file.write_all(bytes)
            .map_err(|e| self.error("cannot write", e))?;
        file.commit()
    }

    fn temporary(&self) -> Result<NamedTempFile, String> {
        let dir = match self.path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = self
            .path
            .file_name()
            .map_or("output".into(), |n| n.to_string_lossy());
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // Read and write for all less the umask, as `File::create` makes files, where a
        // temporary file would otherwise be private.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        builder.tempfile_in(dir).map_err(|e| {
            if dir.is_dir() {
                format!("cannot write in {}: {e}", dir.display())
            } else {
                format!("{}: no such directory for {}", dir.display(), self.shown)
            }
        })
    }

    fn error(&self, what: &str, e: std::io::Error) -> String {
        format!("{what} {}: {e}", self.shown)
    }
}

/// A file being written: nothing is at the output path until [`OutputFile::commit`]; dropped
/// uncommitted, the temporary file is removed.
pub struct OutputFile {
    writer: BufWriter<NamedTempFile>,
    target: OutputPath,
}

impl OutputFile {
    /// Makes the file whole on disk and renames it into place.
    pub fn commit(self) -> Result<(), String> {
        let target = self.target;
        let temporary = self
            .writer
            .into_inner()
            .map_err(|e| target.error("cannot write", e.into_error()))?;
        target.publish(&temporary)?;
        temporary
            .persist(&target.path)
            .map_err(|e| target.error("cannot rename into place", e.error))?;
        Ok(())
    }

    /// Puts what is written so far into place and goes on writing: a long job calls this now
    /// and then, so that dying loses only the work since. The file is copied to go on with.
    pub fn checkpoint(&mut self) -> Result<(), String> {
        self.writer
            .flush()
            .map_err(|e| self.target.error("cannot write", e))?;
        let next = self.target.temporary()?;
        let temporary = std::mem::replace(self.writer.get_mut(), next);
        self.target.publish(&temporary)?;
        temporary
            .persist(&self.target.path)
            .map_err(|e| self.target.error("cannot rename into place", e.error))?;
        let mut done =
            File::open(&self.target.path).map_err(|e| self.target.error("cannot read", e))?;
        std::io::copy(&mut done, self.writer.get_mut().as_file_mut())
            .map_err(|e| self.target.error("cannot copy", e))?;
        Ok(())
    }
}

impl OutputPath {
    /// Syncs a finished temporary file to disk and gives it the permissions of the file it
    /// replaces (a new file has those `File::create` gives, see [`OutputPath::temporary`]).
    fn publish(&self, temporary: &NamedTempFile) -> Result<(), String> {
        let file = temporary.as_file();
        file.sync_all().map_err(|e| self.error("cannot write", e))?;
        if let Ok(old) = std::fs::metadata(&self.path) {
            file.set_permissions(old.permissions())
                .map_err(|e| self.error("cannot set the permissions of", e))?;
        }
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.writer.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_in_place_until_committed_and_then_all_of_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bin");
        std::fs::write(&path, b"old").unwrap();
        let refused = OutputPath::check(&path, "--output", Existing::Refuse).unwrap_err();
        assert!(refused.contains("--force"), "{refused}");

        // Dropped uncommitted: the old file stays, and no temporary file is left.
        let output = OutputPath::check(&path, "--output", Existing::Replace).unwrap();
        let mut file = output.create().unwrap();
        file.write_all(b"new").unwrap();
        drop(file);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

        // Appended: the old bytes, then the new, put in place at each checkpoint.
        let output = OutputPath::check(&path, "--output", Existing::Append).unwrap();
        let mut file = output.create().unwrap();
        file.write_all(b"+1").unwrap();
        file.checkpoint().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old+1");
        file.write_all(b"+2").unwrap();
        file.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old+1+2");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions_and_a_link_stays_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        std::fs::write(&target, b"old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let output = OutputPath::check(&link, "--output", Existing::Replace).unwrap();
        output.write(b"new").unwrap();
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        let mode = std::fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_missing_directory_or_a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/out.bin");
        let error = OutputPath::check(&missing, "--output", Existing::Replace).unwrap_err();
        assert!(error.contains("no such directory"), "{error}");
        let error = OutputPath::check(dir.path(), "--output", Existing::Replace).unwrap_err();
        assert!(error.contains("is a directory"), "{error}");
    }
}
