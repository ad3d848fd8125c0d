/**
 * The AI SDK's `download` hook, set so that nothing is ever fetched on the model's behalf: chatwire hands a
 * model the bytes of an attachment, never a URL. The SDK calls it with every URL it finds in a user message's
 * file and image parts; none may be there, so one is an error naming it rather than a request to the URL.
 */
export async function refuseDownloads(planned: Array<{ url: URL; isUrlSupportedByModel: boolean }>): Promise<Array<null>> {
  const first = planned[0];
  if (first !== undefined) throw new Error(`chatwire does not download ${first.url.protocol}// URLs for the model; send the attachment's bytes`);
  return [];
}
