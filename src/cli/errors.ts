// The CLI's own error: the command line itself is wrong (a missing or contradictory flag, a malformed value).
// main.ts prints it as one line on stderr and exits 1, like the domain commands' CommandError.
export class UsageError extends Error {}
