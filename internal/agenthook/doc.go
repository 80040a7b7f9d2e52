// Package agenthook answers the hooks that coding agents run around their
// tool calls (lore agent-hook pre|post), and writes the project settings
// that install them (lore hook install --agent).
//
// Claude Code and Codex send the same JSON on stdin and read the same JSON
// on stdout:
//
//   - Claude Code: https://docs.claude.com/en/docs/claude-code/hooks
//     (input: hook_event_name, cwd, tool_name, tool_input with file_path
//     for Edit, Write and MultiEdit, notebook_path for NotebookEdit;
//     output: hookSpecificOutput.additionalContext for PreToolUse and
//     PostToolUse, and "decision": "block" with a "reason" after a tool
//     ran; project settings in .claude/settings.json).
//   - Codex: https://developers.openai.com/codex/hooks (the same wire
//     format; file edits are the apply_patch tool, whose tool_input.command
//     is the patch, naming files in "*** Add File:", "*** Update File:",
//     "*** Delete File:" and "*** Move to:" lines; project hooks in
//     .codex/hooks.json).
//
// Before an edit, the answer is what lore knows about the files as
// additional context; after it, the verification of the anchors in them,
// blocking (asking the agent to act) only when one turned invalid.
package agenthook
