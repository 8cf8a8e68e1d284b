/** A caller's argument (an id, a playlist type, a list parameter, a raw path) is unusable; no request was made. */
export class InvalidArgumentError extends TypeError {
  override name = 'InvalidArgumentError';
  constructor(
    /** Which argument, e.g. `mediaId`. */
    readonly argument: string,
    message: string,
  ) {
    super(message);
  }
}
