"""Cues at the moment of action: which corrections bear on a tool call an agent is about to make (an ``Action``:
a file edit or write, a shell command), matched by paths and globs, action classes and meaning."""

from loa_memory.answer.cues.action import ACTION_KINDS, Action, ActionKind
from loa_memory.answer.cues.match import ActionCue, ActionCues, action_record, cues_for_action

__all__ = ["ACTION_KINDS", "Action", "ActionCue", "ActionCues", "ActionKind", "action_record", "cues_for_action"]
