/** What the server offers, as it says in its initialize result and in its server card. */
export const SERVER_CAPABILITIES = { tools: {}, resources: {}, prompts: {}, logging: {}, completions: {} } as const;
