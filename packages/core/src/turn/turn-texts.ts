/** What the client reads in the `error` chunk when a turn ends without its answer stored. */
export const TURN_TEXTS = {
  saveFailed: 'The reply could not be saved. Please send your message again.',
  chatDeleted: 'The chat was deleted while the reply was being written.',
  lostLease: 'Another turn of this chat took over; this reply was not saved.',
  saveConflict: 'Another turn stored this message id or its attachments at the same time; this reply was not saved.',
  firstByteTimeout: 'The model provider did not start answering in time.',
  idleTimeout: 'The model provider stopped sending the answer.',
} as const;
