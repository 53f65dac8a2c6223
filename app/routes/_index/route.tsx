import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { login } from "../../shopify.server";
import styles from "./styles.module.css";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return { showForm: Boolean(login) };
};

export default function Landing() {
  const { showForm } = useLoaderData<typeof loader>();
  return (
    <div className={styles.index}>
      <div className={styles.content}>
        <h1 className={styles.heading}>Refund Verifier</h1>
        <p className={styles.text}>Every refund in your shop, checked against what Shopify really recorded.</p>
        {showForm && (
          <Form className={styles.form} method="post" action="/auth/login">
            <label className={styles.label}>
              <span>Shop domain</span>
              <input className={styles.input} type="text" name="shop" />
              <span>e.g: my-shop-domain.myshopify.com</span>
            </label>
            <button className={styles.button} type="submit">
              Log in
            </button>
          </Form>
        )}
        <ul className={styles.list}>
          <li>
            <strong>Verified, not assumed</strong>. Each refund is read back from Shopify and matched against its webhook.
          </li>
          <li>
            <strong>Duplicates and wrong amounts</strong>. A second refund on an order or a different amount goes to a person.
          </li>
          <li>
            <strong>Gateway failures</strong>. A refund whose transaction failed is flagged before the customer notices.
          </li>
        </ul>
      </div>
    </div>
  );
}
