/**
 * What the end customer sees for each state of their verification: the upload form (NOT_STARTED), a
 * waiting note (UNDER_VERIFICATION), what to fix plus the form again (TEMPORARY_REJECTION), and a final
 * answer that accepts nothing more (APPROVED, FINAL_REJECTION).
 */
import type { FieldError } from '../../core/errors.ts';
import { layout } from '../../lib/hosted-page.ts';
import { type Html, html } from '../../lib/html.ts';
import { IDENTITY_DOCUMENT_TYPES, type IdentityDocumentType } from '../documents/kinds.ts';
import { TERMS_SUMMARY } from '../terms/page.ts';
import type { StatusReason, VerificationStatus } from '../verifications/state.ts';
import type { PageVerificationRow } from './repo.ts';

const STATUS_LABEL: Record<VerificationStatus, string> = {
  NOT_STARTED: 'Not started',
  UNDER_VERIFICATION: 'Under review',
  APPROVED: 'Verified',
  TEMPORARY_REJECTION: 'Action needed',
  FINAL_REJECTION: 'Not verified',
};

const DOCUMENT_LABEL: Record<string, string> = {
  PASSPORT: 'Passport',
  ID_CARD: 'Identity card (RG or national ID)',
  DRIVERS_LICENSE: "Driver's license (CNH)",
  SELFIE: 'Selfie',
};

/** Plain-language explanations of the reject labels compliance uses; others are shown as worded. */
const REASON_TEXT: Record<string, string> = {
  screenshot: 'A screenshot was uploaded. We need a photo or scan of the document itself.',
  unsatisfactory_photos: 'The photos were not clear enough for us to read.',
  badPhoto: 'A photo is blurred, too dark or cut off at the edges.',
  proofOfAddress_listOfDocs: 'The proof of address is not one of the documents we accept.',
  document_expired: 'The document has expired.',
  selfie_mismatch: 'The selfie does not match the photo on the document.',
};

const humanize = (label: string) => {
  const words = label
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
const reasonText = (label: string) => REASON_TEXT[label] ?? humanize(label);
const documentLabel = (type: string) => DOCUMENT_LABEL[type] ?? humanize(type);

const FIELD_LABEL: Record<string, string> = {
  '/body/documentType': 'Document type',
  '/body/document': 'Identity document',
  '/body/selfie': 'Selfie',
};

export type FormProblem = { detail: string; errors: FieldError[] };

function problemBox(problem: FormProblem | undefined): Html {
  if (!problem) return html``;
  const items =
    problem.errors.length > 0
      ? problem.errors.map(
          (error) => html`<li>${FIELD_LABEL[error.pointer] ?? 'Upload'}: ${error.message}</li>`,
        )
      : [html`<li>${problem.detail}</li>`];
  return html`<div class="box bad" role="alert" id="form-errors"><h2>Please check your upload</h2><ul>${items}</ul></div>`;
}

function uploadForm(action: string, submitLabel: string, problem: FormProblem | undefined): Html {
  const options = IDENTITY_DOCUMENT_TYPES.map(
    (type: IdentityDocumentType) => html`<option value="${type}">${documentLabel(type)}</option>`,
  );
  return html`${problemBox(problem)}
<form method="post" action="${action}" enctype="multipart/form-data">
  <label for="documentType">Document type</label>
  <select id="documentType" name="documentType">${options}</select>
  <label for="document">Identity document <span class="hint">PDF, JPEG or PNG, up to 3 MB</span></label>
  <input id="document" name="document" type="file" accept="application/pdf,image/jpeg,image/png" required>
  <label for="selfie">Selfie <span class="hint">a photo of your face, JPEG or PNG, up to 3 MB</span></label>
  <input id="selfie" name="selfie" type="file" accept="image/jpeg,image/png" required>
  <button type="submit">${submitLabel}</button>
</form>`;
}

function reasons(reason: StatusReason): Html {
  const labels = [...reason.rejectLabels, ...reason.rejectSubLabels];
  const general = labels.map((label) => html`<li data-label="${label}">${reasonText(label)}</li>`);
  const documents = reason.documents.map(
    (document) =>
      html`<li data-document="${document.type}"><strong>${documentLabel(document.type)}:</strong> ${document.comment}</li>`,
  );
  return html`<div class="box warn" id="reasons"><h2>What needs fixing</h2><ul>${general}${documents}</ul></div>`;
}

/** The terms come first while the customer has not accepted them: submitting the form accepts them. */
function termsFirst(row: PageVerificationRow): Html {
  if (!row.terms_pending) return html``;
  return html`${TERMS_SUMMARY}
<p id="terms-acceptance"><strong>By submitting your documents you accept these terms of service.</strong></p>`;
}

function body(row: PageVerificationRow, action: string, problem: FormProblem | undefined): Html {
  const partner = row.project_name;
  switch (row.status) {
    case 'NOT_STARTED':
      return html`<h1>Verify your identity</h1>
<p>${partner} needs to confirm who you are. Upload a photo or scan of an identity document and a selfie.
It takes about two minutes.</p>
${termsFirst(row)}
${uploadForm(action, 'Submit for review', problem)}`;
    case 'UNDER_VERIFICATION':
      return html`<h1>Thank you, we are reviewing your documents</h1>
<p>Your documents were received and are being reviewed. There is nothing more to do for now;
${partner} will let you know the outcome.</p>`;
    case 'TEMPORARY_REJECTION':
      return html`<h1>We need new documents</h1>
<p>We could not complete the review with the documents you sent. Please fix the points below and upload
them again.</p>
${reasons(row.status_reason)}
${termsFirst(row)}
${uploadForm(action, 'Submit again', problem)}`;
    case 'APPROVED':
      return html`<h1>You are verified</h1>
<p>Your identity has been confirmed. You can close this page and return to ${partner}.</p>`;
    case 'FINAL_REJECTION':
      return html`<h1>We could not verify your identity</h1>
<div class="box bad"><p>The verification is closed and this page accepts no more documents.
Please contact ${partner} for help.</p></div>`;
  }
}

/** The page for a verification in its current state; `problem` lists what was wrong with an upload. */
export function verificationPage(row: PageVerificationRow, action: string, problem?: FormProblem): string {
  const firstName = row.customer_name.trim().split(/\s+/)[0] ?? '';
  return layout(
    'Identity verification',
    html`<main data-status="${row.status}">
<p class="brand">Ponte · Identity verification</p>
${row.environment === 'sandbox' ? html`<p class="sandbox">Sandbox: no real verification takes place.</p>` : html``}
<p>Hello, ${firstName}</p>
<p>Status: <span class="status ${row.status}" id="status">${STATUS_LABEL[row.status]}</span></p>
${body(row, action, problem)}
<footer>Your documents are sent securely and used only to verify your identity.</footer>
</main>`,
  );
}

/** The answer to a link that is forged, expired, or does not exist. */
export function invalidLinkPage(): string {
  return layout(
    'Link not valid',
    html`<main data-status="INVALID_LINK">
<p class="brand">Ponte · Identity verification</p>
<h1>This link is not valid</h1>
<p>The verification link is incorrect or has expired. Please ask for a new link from the service that sent it
to you.</p>
</main>`,
  );
}

/** A failure that is not about the upload itself. */
export function errorPage(title: string, message: string): string {
  return layout(
    title,
    html`<main data-status="ERROR">
<p class="brand">Ponte · Identity verification</p>
<h1>${title}</h1>
<p>${message}</p>
</main>`,
  );
}
