//! File activity: which files an agent changed, per turn and per session, taken only from
//! its successful `write`, `edit` and `apply_patch` tool calls.
//!
//! Everything here is a pure function of the request: no disk, git or clock is consulted
//! (except a per-fragment time limit on line diffs), so the same timeline always projects to
//! the same answer and a hostile tool call can at worst be ignored. The contract is
//! `file-activity.md`; the stages are:
//!
//! 1. [`patch_grammar`] parses an `apply_patch` text, all or nothing;
//! 2. [`paths`] keeps tool paths lexically inside the workspace root;
//! 3. [`project`] turns completed tool calls into [`FileActivity`] records;
//! 4. [`aggregate`] folds records into per-turn file cards and the Changes view, with
//!    [`display_diff`] composing one diff per turn and path and [`line_counts`] counting.
//!
//! [`project_session`] runs them all; the lower stages are public for the CLI, tests and
//! benchmarks. The records only say what the agent declared: whether a file still exists,
//! and whether a preview may open it, is decided later by the workspace door.

pub mod aggregate;
pub mod changes;
pub mod display_diff;
pub mod line_counts;
pub mod patch_grammar;
pub mod paths;
pub mod project;
pub mod records;
pub mod session;
pub mod timeline;

pub use aggregate::{FileSummary, PathChanges, TurnChange, TurnFiles, TurnPathEntry};
pub use display_diff::DisplayDiff;
pub use line_counts::LineCounts;
pub use patch_grammar::{parse_patch, Patch, PatchError, PatchErrorKind, PatchSection};
pub use paths::{BaseError, PathRejection, WorkspacePaths};
pub use records::{FileAction, FileActivity, FileChangeFragment, TextPair, ToolName};
pub use session::{
    aggregate_session, project_session, session_paths, ActivityError, SessionActivity,
    SessionInput, ToolCallInput, TurnInput, NO_CHANGES_MESSAGE,
};
