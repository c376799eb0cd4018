/** Who acts on the operator surface: an operator account, or the bootstrap token (id null). */
export type Actor = { id: string | null; name: string };
