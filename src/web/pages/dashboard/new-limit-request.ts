/**
 * A new limit request (admins): the customer, the limits wanted, and an optional bank statement, sent as
 * a multipart form whose CSRF token is checked among its parts. Refused input is shown in the form, above
 * what was typed (a file must be chosen again: browsers never prefill a file input).
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../core/errors.ts';
import { type Html, html } from '../../../lib/html.ts';
import { SUPPORTING_DOCUMENT_TYPES } from '../../../modules/documents/kinds.ts';
import { readUpload } from '../../../modules/documents/multipart.ts';
import { createDocumentService } from '../../../modules/documents/service.ts';
import { createLimitRequestService } from '../../../modules/limit-requests/service.ts';
import { checkCsrf, csrfField } from '../../kit/csrf.ts';
import { notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { customersFor, problemText } from './business.ts';
import { customerInput, resolveCustomer } from './customer-lookup.ts';
import { EnvParams, type Render, tenantOf } from './frame.ts';

export const schema = {
  params: EnvParams,
  querystring: Type.Object({ customerId: Type.Optional(Type.String({ maxLength: 64 })) }),
};

type Values = {
  customerId: string;
  single?: string | undefined;
  daily?: string | undefined;
  monthly?: string | undefined;
};

export function view(env: string, csrf: string, values: Values, message?: string): Html {
  return html`${notice(message, 'error')}
<form class="panel" method="post" action="/${env}/limit-requests" enctype="multipart/form-data">${csrfField(csrf)}
<div class="field"><label for="customerId">Customer</label>${customerInput('customerId', values.customerId, { required: true })}</div>
<fieldset><legend>Requested limits in BRL <span class="hint">(at least one)</span></legend><div class="formrow">
<div class="field"><label for="single">Per transaction</label><input id="single" name="single" inputmode="decimal" placeholder="20000.00" value="${values.single ?? ''}"></div>
<div class="field"><label for="daily">Daily</label><input id="daily" name="daily" inputmode="decimal" value="${values.daily ?? ''}"></div>
<div class="field"><label for="monthly">Monthly</label><input id="monthly" name="monthly" inputmode="decimal" value="${values.monthly ?? ''}"></div></div></fieldset>
<div class="field"><label for="document">Bank statement <span class="hint">(optional; PDF, JPG or PNG, up to 3 MB${message ? '; choose it again' : ''})</span></label>
<input id="document" name="document" type="file" accept="application/pdf,image/jpeg,image/png"></div>
<button type="submit">Send for review</button></form>`;
}

export function register(app: WebApp, ctx: AppContext, render: Render) {
  const limitRequests = createLimitRequestService(ctx);
  const documents = createDocumentService(ctx);

  app.get('/:env/limit-requests/new', { config: { access: 'admin' }, schema }, async (request, reply) => {
    const tenant = tenantOf(request);
    const customerId = request.query.customerId ?? '';
    const form = view(tenant.environment, request.session!.csrfToken, { customerId });
    return render(request, reply, 'New limit request', form);
  });

  app.post(
    '/:env/limit-requests',
    { config: { access: 'admin', multipartCsrf: true }, schema: { params: EnvParams } },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const upload = await readUpload(request, {
        files: [],
        optionalFiles: ['document'],
        fields: ['_csrf', 'customerId', 'single', 'daily', 'monthly'],
      });
      checkCsrf(request, upload.fields.get('_csrf'));
      const amount = (name: string) => upload.fields.get(name)?.trim() || undefined;
      const values: Values = {
        customerId: upload.fields.get('customerId')?.trim() ?? '',
        single: amount('single'),
        daily: amount('daily'),
        monthly: amount('monthly'),
      };
      const file = upload.files.get('document');
      const retry = (message: string, status = 400) =>
        render(
          request,
          reply,
          'New limit request',
          view(tenant.environment, request.session!.csrfToken, values, message),
          status,
        );
      try {
        const customers = customersFor(ctx, tenant.environment);
        const customerId = await resolveCustomer(customers.search, tenant, values.customerId);
        if (!customerId)
          return retry('Choose the customer: its id, or a name, tax id or e-mail that finds it.');
        values.customerId = customerId;
        await documents.assertCustomer(tenant, customerId);
        const document = file
          ? await documents.upload(tenant, customerId, { type: SUPPORTING_DOCUMENT_TYPES[0], file })
          : undefined;
        await limitRequests.create(tenant, customerId, {
          requested: { single: values.single, daily: values.daily, monthly: values.monthly },
          ...(document
            ? { supportingDocumentType: SUPPORTING_DOCUMENT_TYPES[0], supportingDocumentId: document.id }
            : {}),
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return retry(problemText(error), error.status);
      }
      return reply.redirect(`/${tenant.environment}/limit-requests?done=created`, 303);
    },
  );
}
