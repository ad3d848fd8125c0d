import type { CollectionDefinition } from '../collection-definition.js';

/** The fixed corpus the search contract runs on every driver and on the memory reference. */
export function searchCollections(messages: string, chats: string): CollectionDefinition[] {
  const rules = { read: 'own', create: 'own', update: 'own', delete: 'own' } as const;
  return [
    {
      name: messages,
      rules,
      columns: [
        { name: 'userId', type: 'string', required: true },
        { name: 'chatId', type: 'string', required: true },
        { name: 'content', type: 'string', required: true },
      ],
    },
    { name: chats, rules, columns: [{ name: 'userId', type: 'string', required: true }, { name: 'title', type: 'string', required: true }] },
  ];
}

/** Rows in insertion order: [kind, recordId, userId, chatId (messages), text]. */
export const SEARCH_CORPUS: readonly (readonly ['message' | 'chat', string, string, string, string])[] = [
  ['chat', 'c1', 'ann', '', 'Trip to Paris'],
  ['chat', 'c2', 'ann', '', 'Budget review'],
  ['chat', 'c3', 'bob', '', 'Paris secrets'],
  ['message', 'm1', 'ann', 'c1', 'The Café in Paris serves crème brûlée after dinner.'],
  ['message', 'm2', 'ann', 'c1', 'Paris is the capital of France. Paris, Paris!'],
  ['message', 'm3', 'ann', 'c1', 'I booked a flight to paris for the conference'],
  ['message', 'm4', 'ann', 'c2', 'The capital budget was approved on Monday'],
  ['message', 'm5', 'ann', 'c2', "Don't forget the brûlée recipe, it needs a blowtorch"],
  ['message', 'm6', 'ann', 'c1', 'ÉCOLE normale supérieure is in PARIS too'],
  ['message', 'm7', 'bob', 'c3', 'Paris trip with secret plans and a budget'],
  ['message', 'm8', 'ann', 'c2', 'Nothing to see here'],
  ['message', 'm9', 'ann', 'c2', 'Straße, Ærø island and Łódź'],
  [
    'message',
    'm10',
    'ann',
    'c2',
    `${'A very long answer about many things that are not the point at all, '.repeat(3)}then the budget appears\n\n   after   several    spaces, and then ${'more words follow the budget for a long while '.repeat(4)}`,
  ],
  // Punctuation inside a "word" separates words here too: PostgreSQL's parser keeps emails, URLs, hosts,
  // versions and file names whole and skips tags unless the text is split first.
  [
    'message',
    'm11',
    'ann',
    'c2',
    'Mail john.doe@example.com or see https://docs.example.org/guide/page?x=1 for v3.14.1; edit foo_bar.txt in /usr/local/bin, <b>bold</b> well-known tips &amp; tricks \u201cquoted\u201d\u2014dash',
  ],
];

/** Searches whose results (ids, order, ranks, snippets) every driver must give exactly as the memory driver does. */
export const SEARCH_CASES: readonly { q: string; chatId?: string; expect?: string[] }[] = [
  { q: 'paris', expect: ['m2', 'm6', 'm3', 'm1', 'c1'] },
  { q: 'PARIS capital', expect: ['m2'] },
  { q: 'capital paris', expect: ['m2'] },
  { q: '"capital of france"', expect: ['m2'] },
  { q: '"france capital"', expect: [] },
  { q: 'creme brulee', expect: ['m1'] },
  { q: 'Crème BRÛLÉE', expect: ['m1'] },
  { q: 'brulee -creme', expect: ['m5'] },
  { q: 'brulee -"creme brulee"', expect: ['m5'] },
  { q: 'ecole', expect: ['m6'] },
  { q: 'strasse aero lodz', expect: ['m9'] },
  { q: 'budget or recipe', expect: ['m10', 'm5', 'm4', 'c2'] },
  { q: 'secret', expect: [] },
  { q: "don't", expect: ['m5'] },
  { q: 'dont', expect: [] },
  { q: 'paris', chatId: 'c2', expect: [] },
  { q: 'capital', chatId: 'c2', expect: ['m4'] },
  { q: '"paris" or "budget review"', expect: ['m2', 'c2', 'm6', 'm3', 'm1', 'c1'] },
  { q: 'paris -', expect: ['m2', 'm6', 'm3', 'm1', 'c1'] },
  { q: 'trip', expect: ['c1'] },
  { q: 'john', expect: ['m11'] },
  { q: 'john.doe@example.com', expect: ['m11'] },
  { q: 'docs guide', expect: ['m11'] },
  { q: 'https://docs.example.org/guide/page', expect: ['m11'] },
  { q: '14', expect: ['m11'] },
  { q: 'v3.14.1', expect: ['m11'] },
  { q: 'bar txt', expect: ['m11'] },
  { q: '"local bin"', expect: ['m11'] },
  { q: 'bold', expect: ['m11'] },
  { q: '"well known tips"', expect: ['m11'] },
  { q: 'amp tricks', expect: ['m11'] },
  { q: 'quoted dash', expect: ['m11'] },
];

/** Search texts that are refused with VALIDATION (never a driver error). */
export const BAD_SEARCHES: readonly unknown[] = ['', '   ', 'x'.repeat(257), '"" - or --', '-paris', 'or', '!!! ??? ...', '-"a b"', 42, null];
