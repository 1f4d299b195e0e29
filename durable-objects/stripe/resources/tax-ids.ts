// Tax ids: a customer's (POST/GET/DELETE /v1/customers/:id/tax_ids) and, in versions that have it, the same
// objects through /v1/tax_ids with an owner. A value must have its type's format, as the API checks before
// accepting it; its country follows from the type (an EU VAT number names its country in its first letters).
// Numbers the tax authorities can check start `pending`; the others are `unavailable`, as the API reports them.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { invalidParam, noSuch, noSuchParam } from "../errors";
import { paginate } from "../list";
import { listShape, oneOf, str, strict } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { requireCustomer } from "./customer-balance";

/** Formats by type, written from each authority's published number layout (upper-cased, spaces ignored). */
const FORMATS: Record<string, RegExp> = {
  ae_trn: /^\d{15}$/,
  au_abn: /^\d{11}$/,
  au_arn: /^\d{12}$/,
  br_cnpj: /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/,
  br_cpf: /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/,
  ca_bn: /^\d{9}$/,
  ca_gst_hst: /^\d{9}RT\d{4}$/,
  ca_pst_bc: /^PST-?\d{4}-?\d{4}$/,
  ca_pst_mb: /^\d{6}-?\d$/,
  ca_pst_sk: /^\d{7}$/,
  ca_qst: /^\d{10}TQ\d{4}$/,
  ch_uid: /^CHE-?\d{3}\.?\d{3}\.?\d{3}$/,
  ch_vat: /^CHE-?\d{3}\.?\d{3}\.?\d{3}(MWST|TVA|IVA)$/,
  es_cif: /^[A-Z]\d{8}$|^[A-Z]\d{7}[A-Z]$/,
  eu_oss_vat: /^EU\d{9}$/,
  eu_vat: /^(ATU\d{8}|BE[01]\d{9}|BG\d{9,10}|CY\d{8}[A-Z]|CZ\d{8,10}|DE\d{9}|DK\d{8}|EE\d{9}|EL\d{9}|ES[A-Z0-9]\d{7}[A-Z0-9]|FI\d{8}|FR[A-Z0-9]{2}\d{9}|HR\d{11}|HU\d{8}|IE\d{7}[A-Z]{1,2}|IE\d[A-Z+*]\d{5}[A-Z]|IT\d{11}|LT(\d{9}|\d{12})|LU\d{8}|LV\d{11}|MT\d{8}|NL\d{9}B\d{2}|PL\d{10}|PT\d{9}|RO\d{2,10}|SE\d{12}|SI\d{8}|SK\d{10}|XI\d{9}|XI\d{12})$/,
  gb_vat: /^GB(\d{9}|\d{12})$/,
  hk_br: /^\d{8}$/,
  in_gst: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
  jp_cn: /^\d{13}$/,
  jp_trn: /^T\d{13}$/,
  kr_brn: /^\d{3}-?\d{2}-?\d{5}$/,
  mx_rfc: /^[A-Z&Ñ]{3,4}\d{6}[A-Z0-9]{3}$/,
  no_vat: /^\d{9}MVA$/,
  nz_gst: /^\d{8,9}$/,
  sg_gst: /^[A-Z]\d{8}[A-Z]$|^\d{9}[A-Z]$/,
  sg_uen: /^\d{8}[A-Z]$|^\d{9}[A-Z]$|^[TSR]\d{2}[A-Z]{2}\d{4}[A-Z]$/,
  us_ein: /^\d{2}-?\d{7}$/,
  za_vat: /^4\d{9}$/,
};

/** Types whose numbers an authority can confirm (the API verifies these in the background). */
const VERIFIED = new Set(["au_abn", "eu_vat", "gb_vat"]);

/** Every type the current API accepts on create (`unknown` is only ever returned, never accepted). */
const TYPES = [
  "ad_nrt", "ae_trn", "al_tin", "am_tin", "ao_tin", "ar_cuit", "au_abn", "au_acn", "au_arn", "au_wpn", "aw_tin", "az_tin", "ba_tin", "bb_tin",
  "bd_bin", "bf_ifu", "bg_uic", "bh_vat", "bj_ifu", "bo_tin", "br_cnpj", "br_cpf", "bs_tin", "bw_vat", "by_tin", "ca_bn", "ca_gst_hst",
  "ca_pst_bc", "ca_pst_mb", "ca_pst_sk", "ca_qst", "cd_nif", "ch_uid", "ch_vat", "ci_vat", "cl_tin", "cm_niu", "cn_tin", "co_nit", "cr_tin",
  "cv_nif", "cz_dic", "de_stn", "do_rcn", "ec_ruc", "eg_tin", "es_cif", "et_tin", "eu_oss_vat", "eu_vat", "fo_vat", "fr_siren", "fr_siret",
  "fr_spi", "gb_vat", "ge_vat", "gh_tin", "gi_tin", "gn_nif", "hk_br", "hr_oib", "hu_tin", "ic_nif", "id_npwp", "il_vat", "in_gst", "is_kt",
  "is_vat", "it_cf", "jp_cn", "jp_rn", "jp_trn", "ke_pin", "kg_tin", "kh_tin", "kr_brn", "kz_bin", "la_tin", "li_uid", "li_vat", "lk_vat",
  "ma_vat", "md_cf", "md_vat", "me_pib", "mk_vat", "mr_nif", "mu_vat", "mx_rfc", "my_frp", "my_itn", "my_sst", "mz_nuit", "ng_tin", "no_vat",
  "no_voec", "np_pan", "nz_bn", "nz_gst", "om_vat", "pe_ruc", "ph_tin", "pl_nip", "pt_nif", "py_ruc", "ro_tin", "rs_pib", "ru_inn", "ru_kpp",
  "sa_vat", "sg_gst", "sg_uen", "si_tin", "sm_coe", "sn_ninea", "sr_fin", "sv_nit", "th_vat", "tj_tin", "tr_tin", "tt_bir", "tt_vat", "tw_vat",
  "tz_vat", "ua_vat", "ug_tin", "us_ein", "uy_ruc", "uz_tin", "uz_vat", "ve_rif", "vn_tin", "za_vat", "zm_tin", "zw_tin",
] as const;

const normalise = (v: string) => v.replace(/\s+/g, "").toUpperCase();

/** The value as the API stores it, or a tax_id_invalid error naming the type. */
export function checkTaxIdValue(type: string, value: string): string {
  const v = value.trim();
  const format = FORMATS[type];
  if (!v || (format && !format.test(normalise(v)))) throw invalidParam(`Invalid value for ${type}.`, "value", "tax_id_invalid");
  return v;
}

function countryOf(type: string, value: string): string | null {
  if (type === "eu_vat") {
    const p = normalise(value).slice(0, 2);
    return p === "EL" ? "GR" : p === "XI" ? "GB" : p;
  }
  if (type === "eu_oss_vat") return null;
  return type.slice(0, 2).toUpperCase();
}

export function taxIdShape(f: { id: string; customer: string | null; type: string; value: string; created: number; verification?: string }): StoredObject {
  return {
    id: f.id,
    object: "tax_id",
    country: countryOf(f.type, f.value),
    created: f.created,
    customer: f.customer,
    customer_account: null,
    livemode: false,
    owner: f.customer ? { customer: f.customer, customer_account: null, type: "customer" } : { customer_account: null, type: "self" },
    type: f.type,
    value: f.value,
    verification: { status: f.verification ?? (VERIFIED.has(f.type) ? "pending" : "unavailable"), verified_address: null, verified_name: null },
  };
}

function seedTaxIds(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return (doc.data.tax_ids ?? []).map((t) => {
    const created = t.created ?? ctx.clock;
    return { type: "tax_ids", obj: taxIdShape({ ...t, created }), customer: t.customer, created };
  });
}

const createParams = strict({ type: oneOf(TYPES), value: str() });

function createTaxId(store: Store, customer: string | null, a: z.output<typeof createParams>): StoredObject {
  const value = checkTaxIdValue(a.type, a.value);
  const t = taxIdShape({ id: store.newId("txi"), customer, type: a.type, value, created: store.now() });
  store.insert("tax_ids", t, customer);
  return t;
}

function requireTaxId(store: Store, id: string, customer: string | null | undefined): StoredObject {
  const t = store.get("tax_ids", id);
  // Under a customer's path only that customer's tax ids exist.
  if (!t || (customer !== undefined && t.customer !== customer)) throw noSuch("tax_id", id);
  return t;
}

function deleteTaxId(store: Store, id: string, customer?: string | null): StoredObject {
  requireTaxId(store, id, customer);
  const stub = { id, object: "tax_id", deleted: true };
  store.remove("tax_ids", id, stub);
  return stub;
}

/** A customer's tax ids as the customer's `tax_ids` list embeds them. */
export function customerTaxIds(store: Store, customer: string): StoredObject[] {
  return store.list("tax_ids", { customer });
}

const ownerParam = strict({ type: oneOf(["account", "application", "customer", "self"]), customer: str().optional(), account: str().optional() });

function ownerCustomer(store: Store, owner: z.output<typeof ownerParam> | undefined): string | null {
  if (!owner || owner.type === "self") return null;
  if (owner.type !== "customer") throw invalidParam(`This account has no connected ${owner.type}s; owner[type] may be customer or self.`, "owner[type]");
  if (owner.customer === undefined) throw invalidParam("owner[customer] is required when owner[type] is customer.", "owner[customer]", "parameter_missing");
  if (!store.get("customers", owner.customer)) throw noSuchParam("customer", owner.customer, "owner[customer]");
  return owner.customer;
}

const listParams = strict({ ...listShape });

function listFor(ctx: StripeContext, customer: string | null, a: z.output<typeof listParams>, url: string) {
  const items = ctx.store.list("tax_ids").filter((t) => t.customer === customer);
  return paginate(items, a, url, "tax_id", (id) => ctx.store.get("tax_ids", id));
}

export const taxIds: Resource = {
  type: "tax_ids",
  object: "tax_id",
  prefix: "txi",
  seed: seedTaxIds,
  expandable: ["customer", "owner.customer"],
  routes: [
    route("POST", "/v1/customers/:id/tax_ids", createParams, (ctx, a, p) => createTaxId(ctx.store, requireCustomer(ctx.store, p.id, "id").id, a)),
    route("GET", "/v1/customers/:id/tax_ids", listParams, (ctx, a, p) => listFor(ctx, requireCustomer(ctx.store, p.id, "id").id, a, `/v1/customers/${p.id}/tax_ids`)),
    route("GET", "/v1/customers/:id/tax_ids/:tax", strict({}), (ctx, _a, p) => requireTaxId(ctx.store, p.tax, requireCustomer(ctx.store, p.id, "id").id)),
    route("DELETE", "/v1/customers/:id/tax_ids/:tax", strict({}), (ctx, _a, p) => deleteTaxId(ctx.store, p.tax, requireCustomer(ctx.store, p.id, "id").id)),
    route("POST", "/v1/tax_ids", strict({ ...createParams.shape, owner: ownerParam.optional() }), (ctx, a) => createTaxId(ctx.store, ownerCustomer(ctx.store, a.owner), a)),
    route("GET", "/v1/tax_ids", strict({ ...listShape, owner: ownerParam.optional() }), (ctx, a) => listFor(ctx, ownerCustomer(ctx.store, a.owner), a, "/v1/tax_ids")),
    route("GET", "/v1/tax_ids/:id", strict({}), (ctx, _a, p) => requireTaxId(ctx.store, p.id, undefined)),
    route("DELETE", "/v1/tax_ids/:id", strict({}), (ctx, _a, p) => deleteTaxId(ctx.store, p.id)),
  ],
};
