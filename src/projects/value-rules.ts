// The rules of a project's values that the API and the import share (decisions §4), as the messages they give. Kept
// apart from rules.ts, which checks API bodies: the import needs these, not the body validator and what it loads.

/** ProjectLifeTimeTo, when given, is not before ProjectLifeTimeFrom. The message when it is. */
export function lifeTimeViolation(from: unknown, to: unknown): string | undefined {
  if (typeof from === 'string' && typeof to === 'string' && to < from)
    return `ProjectLifeTimeTo '${to}' is before ProjectLifeTimeFrom '${from}'.`;
  return undefined;
}

/** `Code`, when given, is unique within its ledger. The message when project `other` has it. */
export const codeTaken = (code: string, other: number, ledger: number): string =>
  `The code '${code}' is already used by project ${other} in ledger ${ledger}.`;
