/**
 * The time source for expiry and throttling. The app takes one from its caller, so tests move
 * time forward instead of sleeping; production uses the system clock.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
