import { join } from "node:path";

/** `$SHIRO_HOME/sessions`. `home` is the shiro home (lib/config/load.ts shiroHome), not $HOME. */
export function sessionsDir(home: string): string {
  return join(home, "sessions");
}

export function sessionPath(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.json`);
}

export function lockPath(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.lock`);
}

/** `<sessions>/<id>.undo/`: what /undo restores (lib/sessions/undo/journal.ts). Removed with the session. */
export function undoDir(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.undo`);
}

/** `<sessions>/<id>.jobs/`: the output of the session's background jobs, one `<job>.log` each (lib/sandbox/jobs.ts). */
export function jobsDir(home: string, id: string): string {
  return join(sessionsDir(home), `${id}.jobs`);
}

const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/;

/** The id of a session file name, or undefined for anything else in the directory (locks, temp files, set-aside files). */
export function idFromFileName(name: string): string | undefined {
  return SESSION_FILE.exec(name)?.[1];
}
