//! A raw ACP session timeline, as a client records it, grouped into display turns.
//!
//! The input is the list of messages the client saw, in order: `session/update`
//! notifications (whole JSON-RPC messages, their `params`, or bare `update` objects), and
//! optionally the client's own `session/new`, `session/load` and `session/prompt`
//! requests. Grouping follows the display: a user's prompt (a `session/prompt` request or
//! `user_message_chunk`s) opens a turn, and everything the agent sends after it (message and
//! thought chunks, tool calls) belongs to that turn until the next prompt, so a turn may hold
//! tool calls only. Content before any prompt forms the first turn.
//!
//! Tool calls are folded by id: `tool_call` announces one in the turn it appears in, and
//! each `tool_call_update` overwrites the fields it carries (`status`, `title`,
//! `rawInput`). An update for a call that was never announced is dropped: a timeline that
//! lost the announcement is incomplete, and the contract infers nothing from it (no title,
//! no input, so no tool identity). Nothing is read from message text.

use serde_json::Value;

use super::session::{ToolCallInput, TurnInput};

/// A timeline grouped into turns, with the working directory its `session/new` or
/// `session/load` request named, if any.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupedTimeline {
    /// The display turns in order, ids `turn-1`, `turn-2`, ….
    pub turns: Vec<TurnInput>,
    /// `params.cwd` of the session's `session/new` or `session/load` request.
    pub cwd: Option<String>,
}

/// One timeline entry, reduced to what grouping needs.
enum Entry<'a> {
    /// The user spoke: a prompt request or a user message chunk.
    Prompt,
    /// The agent spoke or thought.
    AgentContent,
    /// `tool_call` (announce) or `tool_call_update` (amend) for one call id.
    ToolCall {
        update: &'a serde_json::Map<String, Value>,
        announce: bool,
    },
    /// `session/new` or `session/load` with its working directory.
    Session(Option<&'a str>),
    /// Anything else (plans, mode and command updates, responses, unknown messages).
    Other,
}

fn classify(entry: &Value) -> Entry<'_> {
    let Some(object) = entry.as_object() else {
        return Entry::Other;
    };
    match object.get("method").and_then(Value::as_str) {
        Some("session/prompt") => return Entry::Prompt,
        Some("session/new") | Some("session/load") => {
            return Entry::Session(
                object
                    .get("params")
                    .and_then(|p| p.get("cwd"))
                    .and_then(Value::as_str),
            )
        }
        Some("session/update") => {
            return object
                .get("params")
                .and_then(|p| p.get("update"))
                .map_or(Entry::Other, classify_update)
        }
        Some(_) => return Entry::Other,
        None => {}
    }
    match object.get("update") {
        Some(update) => classify_update(update),
        None => classify_update(entry),
    }
}

fn classify_update(update: &Value) -> Entry<'_> {
    let Some(object) = update.as_object() else {
        return Entry::Other;
    };
    match object.get("sessionUpdate").and_then(Value::as_str) {
        Some("user_message_chunk") => Entry::Prompt,
        Some("agent_message_chunk") | Some("agent_thought_chunk") => Entry::AgentContent,
        Some("tool_call") => Entry::ToolCall {
            update: object,
            announce: true,
        },
        Some("tool_call_update") => Entry::ToolCall {
            update: object,
            announce: false,
        },
        _ => Entry::Other,
    }
}

/// Overwrites the fields of `call` that `update` carries.
fn amend(call: &mut ToolCallInput, update: &serde_json::Map<String, Value>) {
    if let Some(title) = update.get("title").and_then(Value::as_str) {
        call.title = Some(title.to_string());
    }
    if let Some(status) = update.get("status").and_then(Value::as_str) {
        call.status = Some(status.to_string());
    }
    if let Some(raw) = update.get("rawInput") {
        call.raw_input = raw.clone();
    }
}

/// Groups a timeline into display turns (see the module docs).
pub fn group(entries: &[Value]) -> GroupedTimeline {
    let mut out = GroupedTimeline::default();
    // Where each call id lives: (turn index, call index).
    let mut calls: std::collections::HashMap<String, (usize, usize)> =
        std::collections::HashMap::new();
    // Whether the open turn has agent content yet; a prompt after content opens a new one.
    let mut open_has_content = false;
    for entry in entries {
        match classify(entry) {
            Entry::Session(cwd) => {
                if let Some(cwd) = cwd {
                    out.cwd = Some(cwd.to_string());
                }
            }
            Entry::Prompt => {
                // Consecutive chunks of one prompt open one turn.
                if open_has_content || out.turns.is_empty() {
                    new_turn(&mut out.turns);
                }
                open_has_content = false;
            }
            Entry::AgentContent => {
                if out.turns.is_empty() {
                    new_turn(&mut out.turns);
                }
                open_has_content = true;
            }
            Entry::ToolCall { update, announce } => {
                let Some(id) = update.get("toolCallId").and_then(Value::as_str) else {
                    continue;
                };
                if id.is_empty() {
                    continue;
                }
                if let Some(&(turn, index)) = calls.get(id) {
                    amend(&mut out.turns[turn].tool_calls[index], update);
                    continue;
                }
                if !announce {
                    // Never announced: an incomplete replay infers nothing.
                    continue;
                }
                if out.turns.is_empty() {
                    new_turn(&mut out.turns);
                }
                let turn = out.turns.len() - 1;
                let mut call = ToolCallInput {
                    tool_call_id: id.to_string(),
                    ..ToolCallInput::default()
                };
                amend(&mut call, update);
                out.turns[turn].tool_calls.push(call);
                calls.insert(id.to_string(), (turn, out.turns[turn].tool_calls.len() - 1));
                open_has_content = true;
            }
            Entry::Other => {}
        }
    }
    out
}

fn new_turn(turns: &mut Vec<TurnInput>) {
    turns.push(TurnInput {
        turn_id: format!("turn-{}", turns.len() + 1),
        tool_calls: Vec::new(),
    });
}

/// Parses a recorded timeline file: a JSON array of entries, or JSON Lines (one entry per
/// line; blank lines skipped). `None` when it is neither.
pub fn parse_entries(bytes: &[u8]) -> Option<Vec<Value>> {
    if let Ok(Value::Array(entries)) = serde_json::from_slice::<Value>(bytes) {
        return Some(entries);
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let mut entries = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        entries.push(serde_json::from_str::<Value>(line).ok()?);
    }
    // A single JSON object is a session document, not a timeline.
    (entries.len() > 1
        || entries
            .first()
            .is_some_and(|e| e.get("sessionUpdate").is_some() || e.get("method").is_some()))
    .then_some(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn update(u: Value) -> Value {
        json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s1", "update": u}})
    }

    fn user(text: &str) -> Value {
        update(
            json!({"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": text}}),
        )
    }

    fn agent(text: &str) -> Value {
        update(
            json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}),
        )
    }

    fn call(id: &str, title: &str, status: &str, raw: Value) -> Value {
        update(
            json!({"sessionUpdate": "tool_call", "toolCallId": id, "title": title, "kind": "edit", "status": status, "rawInput": raw}),
        )
    }

    fn call_update(id: &str, status: &str) -> Value {
        update(json!({"sessionUpdate": "tool_call_update", "toolCallId": id, "status": status}))
    }

    /// Turn ids with their calls' ids and statuses.
    type Shape = Vec<(String, Vec<(String, Option<String>)>)>;

    fn ids(grouped: &GroupedTimeline) -> Shape {
        grouped
            .turns
            .iter()
            .map(|t| {
                (
                    t.turn_id.clone(),
                    t.tool_calls
                        .iter()
                        .map(|c| (c.tool_call_id.clone(), c.status.clone()))
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn prompts_open_turns_and_updates_fold_into_their_call() {
        let timeline = vec![
            json!({"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/w/p", "mcpServers": []}}),
            user("write a note"),
            user(" please"),
            agent("Sure."),
            call(
                "c1",
                "write: notes.md",
                "pending",
                json!({"path": "notes.md", "content": "x"}),
            ),
            call_update("c1", "in_progress"),
            call_update("c1", "completed"),
            user("now edit it"),
            call("c2", "edit: notes.md", "pending", json!({})),
            update(
                json!({"sessionUpdate": "tool_call_update", "toolCallId": "c2", "status": "completed", "rawInput": {"path": "notes.md", "oldText": "x", "newText": "y"}}),
            ),
        ];
        let grouped = group(&timeline);
        assert_eq!(grouped.cwd.as_deref(), Some("/w/p"));
        assert_eq!(
            ids(&grouped),
            vec![
                (
                    "turn-1".into(),
                    vec![("c1".into(), Some("completed".into()))]
                ),
                (
                    "turn-2".into(),
                    vec![("c2".into(), Some("completed".into()))]
                ),
            ]
        );
        assert_eq!(grouped.turns[1].tool_calls[0].raw_input["newText"], "y");
        assert_eq!(
            grouped.turns[1].tool_calls[0].title.as_deref(),
            Some("edit: notes.md")
        );
    }

    #[test]
    fn a_turn_may_hold_tool_calls_only() {
        let timeline = vec![
            call(
                "c1",
                "write: a.txt",
                "completed",
                json!({"path": "a.txt", "content": "a"}),
            ),
            user("more"),
            call(
                "c2",
                "write: b.txt",
                "completed",
                json!({"path": "b.txt", "content": "b"}),
            ),
        ];
        assert_eq!(
            ids(&group(&timeline)),
            vec![
                (
                    "turn-1".into(),
                    vec![("c1".into(), Some("completed".into()))]
                ),
                (
                    "turn-2".into(),
                    vec![("c2".into(), Some("completed".into()))]
                ),
            ]
        );
    }

    #[test]
    fn an_update_without_its_announcement_infers_nothing() {
        let timeline = vec![
            user("go"),
            update(
                json!({"sessionUpdate": "tool_call_update", "toolCallId": "lost", "status": "completed", "rawInput": {"path": "a.txt", "content": "a"}}),
            ),
            agent("done"),
        ];
        let grouped = group(&timeline);
        assert_eq!(ids(&grouped), vec![("turn-1".into(), vec![])]);
    }

    #[test]
    fn transcript_only_timelines_have_no_tool_calls() {
        let timeline = vec![user("hi"), agent("hello"), user("bye"), agent("ciao")];
        let grouped = group(&timeline);
        assert_eq!(grouped.turns.len(), 2);
        assert!(grouped.turns.iter().all(|t| t.tool_calls.is_empty()));
    }

    #[test]
    fn bare_updates_and_params_are_entries_too() {
        let timeline = vec![
            json!({"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "write: a", "status": "completed", "rawInput": {}}),
            json!({"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "c2", "title": "write: b", "status": "completed", "rawInput": {}}}),
            json!("noise"),
            json!({"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "end_turn"}}),
        ];
        let grouped = group(&timeline);
        assert_eq!(grouped.turns.len(), 1);
        assert_eq!(grouped.turns[0].tool_calls.len(), 2);
    }

    #[test]
    fn timeline_files_are_json_arrays_or_json_lines() {
        let lines = b"{\"sessionUpdate\":\"agent_message_chunk\"}\n\n{\"sessionUpdate\":\"user_message_chunk\"}\n";
        assert_eq!(parse_entries(lines).unwrap().len(), 2);
        assert_eq!(parse_entries(b"[1, 2, 3]").unwrap().len(), 3);
        assert!(parse_entries(b"{\"turns\": []}").is_none());
        assert!(parse_entries(b"not json").is_none());
    }
}
