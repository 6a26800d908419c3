import { Fragment } from "react";
import { domainNameFitStyle, domainNameLabels } from "../lib/domain-name";

/**
 * A domain name as text: it may break only after a dot, never inside a label ("nordhaven.co / m"
 * reads as a .co name). With `fit` it first shrinks to fit its line (a CSS container query, so it
 * works without JavaScript), down to 60%, then breaks at the dots; a label too long for the line
 * shrinks further. `fit` makes it a block of its own (the container it measures).
 */
export function DomainName({ name, fit = false, className = "" }: { name: string; fit?: boolean; className?: string }) {
  const text = (
    <span
      data-domain-name
      className={`${fit ? "domain-name-fit" : ""} ${className}`}
      style={fit ? (domainNameFitStyle(name) as React.CSSProperties) : undefined}
    >
      {domainNameLabels(name).map((label, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {/* Each label with its dot on one line: a hyphen is a break opportunity otherwise. */}
          <span className="whitespace-nowrap">{label}</span>
        </Fragment>
      ))}
    </span>
  );
  return fit ? <span className="domain-name-box">{text}</span> : text;
}

/** An amount of money as text that never wraps ("$26,00 / 0"). */
export function Price({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return (
    <span data-price className={`whitespace-nowrap ${className}`}>
      {children}
    </span>
  );
}
