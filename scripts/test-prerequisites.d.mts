export type PrerequisiteOptions = {
  env?: NodeJS.ProcessEnv;
  isRoot?: boolean;
  run?: (command: string, args: string[]) => boolean;
  log?: (line: string) => void;
  error?: (line: string) => void;
};

export function ensureTestPrerequisites(options?: PrerequisiteOptions): boolean;
