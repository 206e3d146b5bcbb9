import { CadreError } from '../errors';

/** The person stopped watching (Ctrl-C) while the run waits for them; the message says how to answer later. */
export class StoppedWatching extends CadreError {
  constructor(message: string) {
    super('StoppedWatching', message);
  }
}
