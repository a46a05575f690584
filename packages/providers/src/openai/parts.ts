import type { SuccessOutcome } from '@toolshed/core';
import { leadingText } from '../parts/output-text.js';
import { dataUrl, fileNameOf, type PartRules, type PlannedPart, planParts } from '../parts/plan.js';
import { capText } from '../result-text.js';

/** OpenAI's documented limit for one image or file input. */
export const OPENAI_MAX_PART_BYTES = 20 * 1024 * 1024;

const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const AUDIO_FORMATS = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3' } as const;
type ChatAudioType = keyof typeof AUDIO_FORMATS;

function isChatAudio(mime: string): mime is ChatAudioType {
  return Object.hasOwn(AUDIO_FORMATS, mime);
}

/** A Responses `function_call_output` item list entry: text, an image or a file. */
export type OpenAIFunctionOutputItem =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** A Chat Completions user content part: text, an image, audio or a file. */
export type OpenAIChatUserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

const responsesRules = (maxPartBytes: number): PartRules => ({
  api: 'the OpenAI Responses API',
  maxPartBytes,
  refuses: (part, mime) => {
    if (part.type === 'audio') return 'function call outputs in the Responses API take images and files, not audio';
    if (IMAGE_TYPES.includes(mime) || mime === 'application/pdf') return undefined;
    return `function call outputs in the Responses API take PNG, JPEG, GIF and WebP images and PDF files, not ${mime}`;
  },
});

/** A success with parts as a Responses function output list: its text, then each part natively or as a note. */
export function responsesItems(outcome: SuccessOutcome, maxChars: number, maxPartBytes: number): OpenAIFunctionOutputItem[] {
  const text = leadingText(outcome, maxChars);
  const items: OpenAIFunctionOutputItem[] = text === undefined ? [] : [{ type: 'input_text', text }];
  for (const planned of planParts(outcome, responsesRules(maxPartBytes))) {
    if (planned.kind === 'text') items.push({ type: 'input_text', text: capText(planned.text, maxChars) });
    else if (IMAGE_TYPES.includes(planned.mime))
      items.push({ type: 'input_image', image_url: dataUrl(planned.part, planned.mime), detail: 'auto' });
    else
      items.push({
        type: 'input_file',
        file_data: dataUrl(planned.part, planned.mime),
        filename: fileNameOf(planned.part, 'document.pdf'),
      });
  }
  return items;
}

const chatRules = (maxPartBytes: number): PartRules => ({
  api: 'OpenAI Chat Completions',
  maxPartBytes,
  refuses: (_part, mime) =>
    IMAGE_TYPES.includes(mime) || isChatAudio(mime) || mime === 'application/pdf'
      ? undefined
      : `Chat Completions takes PNG, JPEG, GIF and WebP images, WAV and MP3 audio and PDF files, not ${mime}`,
});

/**
 * A success's parts for Chat Completions, whose tool messages carry text only: the tool message's
 * text (with a line saying where each part went), and the parts for one user message after the
 * tool messages.
 */
export function chatParts(
  outcome: SuccessOutcome,
  replyId: string,
  maxChars: number,
  maxPartBytes: number,
): { text: string; parts: OpenAIChatUserPart[] } {
  const lines: string[] = [];
  const text = leadingText(outcome, maxChars);
  if (text !== undefined) lines.push(text);
  const parts: OpenAIChatUserPart[] = [];
  const planned = planParts(outcome, chatRules(maxPartBytes));
  planned.forEach((entry, index) => {
    if (entry.kind === 'text') {
      lines.push(entry.text);
      return;
    }
    lines.push(`[Part ${index} (${entry.part.type}, ${entry.mime}) follows in the next user message, marked ${replyId} part ${index}.]`);
    parts.push({ type: 'text', text: `${replyId} part ${index} (${outcome.name}):` }, chatPart(entry));
  });
  return { text: capText(lines.join('\n'), maxChars), parts };
}

function chatPart(entry: PlannedPart & { kind: 'inline' }): OpenAIChatUserPart {
  const { part, mime } = entry;
  if (isChatAudio(mime)) return { type: 'input_audio', input_audio: { data: part.data, format: AUDIO_FORMATS[mime] } };
  if (IMAGE_TYPES.includes(mime)) return { type: 'image_url', image_url: { url: dataUrl(part, mime) } };
  return { type: 'file', file: { file_data: dataUrl(part, mime), filename: fileNameOf(part, 'document.pdf') } };
}
