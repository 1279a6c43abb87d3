import type { EventSink } from "../events.ts";
import type { TurnChanges, TurnRecorder, UndoJournal } from "../sessions/undo/journal.ts";

/**
 * A turn's record in the undo journal, as the conversation holds it: once its start could not be
 * written, it records nothing and ends with no changes, and the user is told once; the turn
 * itself runs on, unrecorded.
 */
export type TurnRecording = Omit<TurnRecorder, "end"> & { end(outcome: { commands: number }): Promise<TurnChanges | undefined> };

/**
 * Begins recording a turn; undefined without a journal, or when it cannot be written. Its start is
 * written on the event loop's next turn, once the first request is on its way (it waits for the
 * disk), and in any case before the first tool runs (the caller calls `ready()`).
 */
export function beginTurnRecording(undo: UndoJournal | undefined, turn: Parameters<UndoJournal["beginTurn"]>[0], emit: EventSink): TurnRecording | undefined {
  if (!undo) return undefined;
  const trouble = (error: unknown) => emit({ type: "notice", message: undoTrouble(error) });
  let recorder: TurnRecorder;
  try {
    recorder = undo.beginTurn(turn);
  } catch (error) {
    trouble(error);
    return undefined;
  }
  let recording = true;
  const ready = () => {
    if (!recording) return;
    try {
      recorder.ready();
    } catch (error) {
      recording = false;
      trouble(error);
    }
  };
  setImmediate(ready);
  return {
    ready,
    before: (path) => (recording ? recorder.before(path) : Promise.resolve()),
    end: async (outcome) => (recording ? recorder.end(outcome) : undefined),
  };
}

/** The notice when the journal cannot record a turn. */
export function undoTrouble(error: unknown): string {
  return `/undo cannot record this turn: ${error instanceof Error ? error.message : String(error)}`;
}
