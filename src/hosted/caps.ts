/**
 * The bounds a hosted surface is held to. Its tool list and answers are upstream data that a model
 * reads as instructions, so each has a cap chosen for what a real surface needs (a few dozen tools,
 * descriptions of a few hundred characters), with room to spare, and no more.
 */
export const HOSTED_CAPS = {
  /** Bridged tools offered at most: a few dozen serve a real surface; more drown a model's choice. */
  tools: 40,
  /** tools/list pages read at most: 40 tools fit in a page or two. */
  listPages: 5,
  /** Characters of a description kept (cut with an ellipsis): ours are under 300; 600 leaves room. */
  descriptionChars: 600,
  titleChars: 80,
  /** An input or output schema, as compact JSON: ours are under 1.5 KB; a schema of 8 KB is a document, not arguments. */
  schemaBytes: 8_192,
  /** Nesting of a schema: arguments of a read-only lookup are shallow; ours reach 4. */
  schemaDepth: 10,
  /**
   * The model-facing size of every bridged tool together (name, title, description, input schema),
   * beside our own (under 5 KB): a client sends the whole list with every turn. Tools past it are skipped.
   */
  listBytes: 24_576,
  /** One hosted answer, as sent: 1 MiB holds any page a model can read; 50 MB is an attack or a bug. */
  answerBytes: 1_048_576,
  /** Characters of a hosted result's text shown to the model (structuredContent keeps the rest). */
  textChars: 8_000,
  contentBlocks: 20,
} as const;

/**
 * How long the first tools/list waits for the hosted list, when neither the build nor an earlier
 * run left one, before answering with ours alone (and telling the client when the rest arrive): a
 * first read takes three round trips, which a deployment on the same network answers within it; a
 * far or hanging one must not hold a start up (1.5 s did before the list was kept between runs, and
 * 300 ms still put a hanging one 444 ms past the floor on a loaded machine, over the 400 allowed).
 */
export const FIRST_LIST_WAIT_MS = 200;
export const LIST_TTL_MS = 5 * 60_000;
/** After a failed read, how long before the next try (a down surface is not asked on every list). */
export const LIST_RETRY_MS = 30_000;
