import { Elysia } from "elysia";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { IdParams, pageOfSchema } from "../http/schemas";
import { CompanyListQuery, CompanySchema, CreateCompanyBody, UpdateCompanyBody } from "./contacts.schemas";
import { createCompany, deleteCompany, findCompany, presentCompany, updateCompany } from "./companies.service";
import { readCompanyList } from "./contacts.reads";

const read = { role: "viewer", scopes: ["contacts:read"] } as const;
const write = { role: "agent", scopes: ["contacts:write"] } as const;

export function companiesRoutes(deps: Deps) {
  return new Elysia({ prefix: "/companies", tags: ["companies"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await readCompanyList(deps, ctx, query), {
      access: read,
      query: CompanyListQuery,
      response: { 200: pageOfSchema(CompanySchema) },
      detail: {
        summary: "Companies, newest first; filters q (any word of the name or domain, or a prefix), tag, field.<key>",
        description: `With \`q\`: ${READ_POOL_NOTE}`,
      },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return await presentCompany(deps.db, await createCompany(ctx, body, deps));
      },
      {
        access: write,
        body: CreateCompanyBody,
        response: { 201: CompanySchema },
        detail: { summary: "Create a company; 409 conflict on a taken domain" },
      },
    )
    .get(
      "/:id",
      async ({ ctx, params }) => {
        const row = await findCompany(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("Company");
        return await presentCompany(deps.db, row);
      },
      { access: read, params: IdParams, response: { 200: CompanySchema }, detail: { summary: "A company" } },
    )
    .patch(
      "/:id",
      async ({ ctx, params, body }) => await presentCompany(deps.db, await updateCompany(ctx, params.id, body, deps)),
      {
        access: write,
        params: IdParams,
        body: UpdateCompanyBody,
        response: { 200: CompanySchema },
        detail: { summary: "Change a company" },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteCompany(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: IdParams,
        detail: { summary: "Delete a company; its contacts stay, without a company" },
      },
    );
}
