#!/usr/bin/python3
"""Drives the gateway's web console in a real browser (Debian's chromium, through chromium-driver and
python3-selenium): signs in, composes a notification for a category with three buttons, watches the live
preview follow the title, sees the diagnostic of an invalid URL beside its button, sends the notification to
an uploaded recipient list as a campaign, and finds the campaign's chart. Writes a screenshot of every page
to --out. Run by ConsoleBrowserTests (make test) against a gateway it started on 127.0.0.1.

Exit status 0 when every check passed; otherwise 1, with the failed check on stderr.
"""
import argparse
import datetime
import json
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import (NoSuchElementException, NoSuchFrameException,
                                        StaleElementReferenceException, WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the gateway, e.g. http://127.0.0.1:8080")
    parser.add_argument("--key", required=True, help="a secret API key of the app")
    parser.add_argument("--recipients", help="a recipient list file to upload")
    parser.add_argument("--levers", action="store_true", help="instead: a scheduled local-time campaign to a "
                        "segment built in the audience builder, with a second language (issue 35)")
    parser.add_argument("--out", required=True, help="the directory for the screenshots")
    parser.add_argument("--taps-command", help="once the campaign is finished, write its id to this file and wait "
                        "for FILE.done (the caller posts taps for it meanwhile)")
    parser.add_argument("--expect-tap-chart", action="store_true", help="the campaign page must chart taps")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--hide-scrollbars", "--force-device-scale-factor=1",
                     "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--lang=en-US",
                     # Nothing but the gateway on 127.0.0.1 resolves: a page that fetched from the internet fails.
                     "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(30)
    wait = WebDriverWait(driver, 15, poll_frequency=0.1)
    shots = []
    steps = []

    def shot(name, width=1280):
        """The whole page at `width` CSS pixels, from its top."""
        height = 900
        for _ in range(4):  # the window is taller than its viewport, and the layout settles at the new width
            driver.set_window_size(width, height)
            driver.execute_script("window.scrollTo(0, 0)")
            inner, full = driver.execute_script(
                "return [window.innerHeight, document.documentElement.scrollHeight]")
            if inner >= full or height >= 5000:
                break
            height = min(height + full - inner, 5000)
        path = os.path.join(args.out, name + ".png")
        driver.save_screenshot(path)
        driver.set_window_size(1280, 900)
        shots.append(path)

    def in_preview(read):
        """What `read` finds inside the preview frame; None while the frame is being replaced (the wait retries)."""
        try:
            driver.switch_to.frame(driver.find_element(By.ID, "preview"))
            return read()
        except (StaleElementReferenceException, NoSuchElementException, NoSuchFrameException):
            return None
        except WebDriverException as error:
            # Chromium's way of saying "stale" when the frame is replaced between finding a node and reading it.
            if "does not belong to the document" in str(error):
                return None
            raise
        finally:
            driver.switch_to.default_content()

    def preview_title():
        """The title line of the expanded notification inside the preview frame."""
        return in_preview(lambda: driver.find_element(By.CSS_SELECTOR, ".expanded .title").text)

    def preview_buttons():
        return in_preview(
            lambda: [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".expanded .action .label")])

    def type_into(element_id, text):
        element = driver.find_element(By.ID, element_id)
        element.clear()
        element.send_keys(text)

    try:
        # Sign in.
        driver.get(args.base + "/console/compose")
        check("/console/login" in driver.current_url, "an anonymous visit is sent to the sign-in page")
        shot("01-login")
        driver.find_element(By.ID, "key").send_keys(args.key)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(lambda d: "/console/compose" in d.current_url)
        check(args.key not in driver.page_source, "the key appears nowhere in the page")
        cookies = {c["name"]: c for c in driver.get_cookies()}
        check(cookies.get("pb_console", {}).get("httpOnly") is True, "the session cookie is HttpOnly")
        check(cookies.get("pb_console", {}).get("sameSite") == "Strict", "the session cookie is SameSite=Strict")
        steps.append("signed in")
        if args.levers:
            levers(driver, wait, shot, steps, preview_title, type_into)
            problems = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
            check(not problems, "the browser reported: %s" % problems)
            driver.quit()
            print(json.dumps({"steps": steps, "screenshots": shots}))
            return 0

        # Compose for the category with three buttons.
        Select(driver.find_element(By.ID, "category")).select_by_value("message")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".button-row")) == 3)
        labels = [label.text for label in driver.find_elements(By.CSS_SELECTOR, "label[for]")]
        check("Title" in labels and "Body" in labels, "the fields have labels")
        type_into("title", "Lunch tomorrow?")
        type_into("body", "Anna asks whether you join at noon. Reply, like or delete.")
        wait.until(lambda d: preview_title() == "Lunch tomorrow?")
        # Waited for, not read once: the body's own preview may be replacing the frame at this moment.
        wait.until(lambda d: preview_buttons() == ["Reply", "Like", "Delete"], "the preview shows the three buttons")
        steps.append("preview shows the typed title and three buttons")

        # The preview follows the title as it changes.
        type_into("title", "Dinner tonight?")
        wait.until(lambda d: preview_title() == "Dinner tonight?")
        steps.append("preview changed with the title")

        # Another language's tab: the buttons' French titles.
        driver.find_element(By.CSS_SELECTOR, "label[for=tab-fr]").click()
        wait.until(lambda d: preview_buttons() == ["Répondre", "J’aime", "Supprimer"])
        driver.find_element(By.CSS_SELECTOR, "label[for=tab-en]").click()
        wait.until(lambda d: preview_buttons() == ["Reply", "Like", "Delete"])
        steps.append("preview follows the locale")

        # An invalid URL: the diagnostic appears beside the Like button.
        Select(driver.find_element(By.ID, "action.like")).select_by_value("pushbutton.callback")
        type_into("args.like", '{"url": "not a url"}')
        wait.until(lambda d: "url" in d.find_element(By.ID, "diag-button.like").text)
        diagnostic = driver.find_element(By.ID, "diag-button.like").text
        check("error" in diagnostic, "the diagnostic is an error: " + diagnostic)
        check(driver.find_element(By.ID, "args.like").get_attribute("aria-invalid") == "true",
              "the arguments field is marked invalid")
        shot("03-compose-invalid-url")
        steps.append("diagnostic for an invalid URL: " + diagnostic.splitlines()[0])

        # Fix it: the diagnostic goes away.
        type_into("args.like", '{"url": "https://api.example.com/messages/42/like"}')
        wait.until(lambda d: d.find_element(By.ID, "diag-button.like").text.strip() == "")
        type_into("action_args", '{"message_id": 42}')
        wait.until(lambda d: d.find_element(By.ID, "diag-action_args").text.strip() == ""
                   and preview_title() == "Dinner tonight?")
        shot("02-compose")

        # The compose page on a phone-sized screen: nothing wider than the screen.
        driver.set_window_size(390, 844)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, "the compose page fits a 390 px screen (%d px too wide)" % overflow)
        shot("06-compose-phone", width=390)

        # Send it to an uploaded list as a campaign.
        driver.find_element(By.ID, "to-list").click()
        driver.find_element(By.ID, "recipients").send_keys(os.path.abspath(args.recipients))
        driver.find_element(By.ID, "send").click()
        wait.until(lambda d: "/console/campaigns/c_" in d.current_url)
        campaign_url = driver.current_url
        steps.append("sent as campaign " + campaign_url.rsplit("/", 1)[-1])

        # The campaign page, once every recipient is finished, has its chart.
        # Generous deadlines: make test runs other suites' servers beside this one on two cores.
        deadline = time.time() + 60
        while True:
            progress = driver.find_element(By.ID, "progress")
            if progress.get_attribute("value") == progress.get_attribute("max"):
                break
            check(time.time() < deadline, "the campaign finished within 60 s")
            time.sleep(0.3)
            driver.get(campaign_url)
        if args.taps_command:
            # The test posts taps for the campaign now, then the page is read again.
            with open(args.taps_command + ".tmp", "w") as ready:
                ready.write(campaign_url.rsplit("/", 1)[-1])
            os.rename(args.taps_command + ".tmp", args.taps_command)
            ready = args.taps_command + ".done"
            deadline = time.time() + 60
            while not os.path.exists(ready):
                check(time.time() < deadline, "the taps were posted within 60 s")
                time.sleep(0.1)
            driver.get(campaign_url)
        charts = driver.find_elements(By.CSS_SELECTOR, "svg.chart[role=img]")
        check(any(c.get_attribute("id") == "chart-outcomes" for c in charts), "the deliveries chart is there")
        if args.expect_tap_chart:
            check(any(c.get_attribute("id") == "chart-buttons" for c in charts), "the taps-per-button chart is there")
        bars = driver.find_elements(By.CSS_SELECTOR, "svg.chart .bar")
        check(len(bars) >= 3, "the charts have bars")
        shot("04-campaign")
        steps.append("campaign page has %d chart(s): %s" % (len(charts), ", ".join(c.get_attribute("id") for c in charts)))

        # The list of campaigns and the devices page.
        driver.find_element(By.LINK_TEXT, "Campaigns").click()
        wait.until(lambda d: d.find_elements(By.ID, "campaigns"))
        check("Dinner tonight?" in driver.find_element(By.ID, "campaigns").text, "the campaign is listed")
        shot("05-campaigns")
        driver.find_element(By.LINK_TEXT, "Devices").click()
        wait.until(lambda d: d.find_elements(By.ID, "device-totals"))
        shot("07-devices")
        steps.append("devices: " + driver.find_element(By.ID, "device-totals").text)

        # Sign out: the console is closed again.
        driver.find_element(By.CSS_SELECTOR, "header form button").click()
        wait.until(lambda d: "/console/login" in d.current_url)
        driver.get(args.base + "/console/devices")
        check("/console/login" in driver.current_url, "after signing out the pages need a sign-in again")
        steps.append("signed out")

        # No script error, no blocked resource, nothing the page asked for outside the gateway.
        problems = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check(not problems, "the browser reported: %s" % problems)
    except (CheckFailed, WebDriverException) as error:
        path = os.path.join(args.out, "failure.png")
        try:
            driver.save_screenshot(path)
        except Exception:
            pass
        print("console browser test failed: %s (at %s; done: %s; screenshot %s)"
              % (error or type(error).__name__, driver.current_url, steps, path), file=sys.stderr)
        driver.quit()
        return 1
    driver.quit()
    print(json.dumps({"steps": steps, "screenshots": shots}))
    return 0


def levers(driver, wait, shot, steps, preview_title, type_into):
    """Issue 35's controls: a second language's tab switches the preview, the audience builder's live count
    follows its conditions, and a campaign scheduled at a wall-clock time on each device is listed as scheduled.
    Every wait is for a condition of the page, bounded by `wait`'s timeout."""
    Select(driver.find_element(By.ID, "category")).select_by_value("message")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".button-row")) == 3)
    type_into("title", "Holiday hours")
    type_into("body", "We open at ten on the 24th.")
    wait.until(lambda d: preview_title() == "Holiday hours")

    # The French tab: its own title, and the preview in French.
    driver.find_element(By.CSS_SELECTOR, "label[for=tab-fr]").click()
    field = driver.find_element(By.ID, "loc.fr.title")
    wait.until(lambda d: field.is_displayed())
    field.send_keys("Horaires des fêtes")
    wait.until(lambda d: preview_title() == "Horaires des fêtes"
               and d.find_element(By.ID, "preview-locale").text == "fr")
    check(not driver.find_element(By.ID, "title").is_displayed(), "the default text's tab is hidden")
    steps.append("preview title follows the fr tab")
    driver.find_element(By.CSS_SELECTOR, "label[for=tab-en]").click()
    wait.until(lambda d: preview_title() == "Holiday hours")
    steps.append("preview title back to the default tab")
    # With the keyboard: the tabs are a radio group, the arrow keys move between them.
    driver.execute_script("document.getElementById('tab-en').focus()")
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    wait.until(lambda d: d.find_element(By.ID, "tab-fr").is_selected()
               and d.find_element(By.ID, "loc.fr.title").is_displayed()
               and preview_title() == "Horaires des fêtes", "the right arrow key chose the fr tab")
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    wait.until(lambda d: d.find_element(By.ID, "tab-en").is_selected() and preview_title() == "Holiday hours")
    steps.append("the arrow keys switch the language tabs")

    # The audience builder: one condition, then a second, the count following each.
    driver.find_element(By.ID, "to-segment").click()
    wait.until(lambda d: d.find_element(By.ID, "audience").is_displayed())

    def count():
        return driver.find_element(By.ID, "audience-count").get_attribute("data-count")

    Select(driver.find_element(By.ID, "seg.0.kind")).select_by_value("tag")
    driver.find_element(By.ID, "seg.0.value").send_keys("beta")
    wait.until(lambda d: count() == "4", "the count of the tag 'beta' is 4")
    first = count()
    driver.find_element(By.ID, "add-condition").click()
    wait.until(lambda d: d.find_elements(By.ID, "seg.1.kind"))
    check(driver.switch_to.active_element.get_attribute("id") == "seg.1.kind", "the new condition has the focus")
    Select(driver.find_element(By.ID, "seg.1.kind")).select_by_value("app_version")
    driver.find_element(By.ID, "seg.1.value").send_keys(">=2.1")
    wait.until(lambda d: count() == "1", "the count with app_version >=2.1 is 1")
    steps.append("live count %s -> %s when a condition was added" % (first, count()))
    # Removing it brings the count back; the focus stays in the builder; adding it again renumbers nothing.
    driver.find_element(By.CSS_SELECTOR, "li.condition[data-row='1'] button.remove").click()
    wait.until(lambda d: count() == "4" and not d.find_elements(By.ID, "seg.1.kind"), "the count after removing")
    check(driver.switch_to.active_element.get_attribute("id") == "seg.0.kind", "the focus moved to the row left")
    driver.find_element(By.ID, "add-condition").click()
    wait.until(lambda d: d.find_elements(By.ID, "seg.1.kind"))
    Select(driver.find_element(By.ID, "seg.1.kind")).select_by_value("app_version")
    driver.find_element(By.ID, "seg.1.value").send_keys(">=2.1")
    wait.until(lambda d: count() == "1", "the count with the condition added again")
    steps.append("removing the condition brought the count back to 4")
    shot("08-audience-builder")

    # When: 09:00 on each device's clock, the day after tomorrow; a throttle.
    driver.find_element(By.ID, "when-local").click()
    at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=2)).strftime("%Y-%m-%dT09:00")
    send_at = driver.find_element(By.ID, "send_at")
    wait.until(lambda d: send_at.is_displayed())
    # A datetime-local control's keyboard entry follows the browser's locale: the value is set as a script would.
    driver.execute_script("arguments[0].value = arguments[1];"
                          "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", send_at, at)
    type_into("throttle_per_minute", "600")
    wait.until(lambda d: d.find_element(By.ID, "diag-send_at").text.strip() == ""
               and d.find_element(By.ID, "diag-throttle_per_minute").text.strip() == "")
    driver.find_element(By.ID, "send").click()
    wait.until(lambda d: "/console/campaigns/c_" in d.current_url)
    state = driver.find_element(By.ID, "campaign-state").text
    check(state == "scheduled", "the campaign is scheduled, not %r" % state)
    steps.append("campaign %s is %s: %s" % (driver.current_url.rsplit("/", 1)[-1], state,
                                            driver.find_element(By.ID, "campaign-send-at").text))
    shot("09-campaign-scheduled")

    driver.find_element(By.LINK_TEXT, "Campaigns").click()
    wait.until(lambda d: d.find_elements(By.ID, "campaigns"))
    row = driver.find_element(By.CSS_SELECTOR, "#campaigns tbody tr")
    check("Holiday hours" in row.text and "scheduled" in row.text and "local time" in row.text,
          "the campaign is listed as scheduled at local time: %r" % row.text)
    steps.append("listed as scheduled")
    shot("10-campaigns-scheduled")

    # An experiment (issue 36): "Add a variant" (a form submit) copies the notification into B; B's own title
    # shows in B's preview tab as it is typed.
    driver.find_element(By.LINK_TEXT, "Compose").click()
    wait.until(lambda d: d.find_elements(By.ID, "add-variant"))
    type_into("title", "Lunch?")
    type_into("body", "At noon")
    driver.find_element(By.ID, "add-variant").click()
    wait.until(lambda d: d.find_elements(By.ID, "variants[1].title"))
    check(driver.find_element(By.ID, "variants[1].title").get_attribute("value") == "Lunch?",
          "variant B starts as a copy of the notification")

    def variant_title():
        try:
            driver.switch_to.frame(driver.find_element(By.ID, "preview-variant-1"))
            return driver.find_element(By.CSS_SELECTOR, ".expanded .title").text
        except (StaleElementReferenceException, NoSuchElementException, NoSuchFrameException):
            return None
        finally:
            driver.switch_to.default_content()

    type_into("variants[1].title", "Hungry?")
    driver.find_element(By.CSS_SELECTOR, "label[for=vtab-1]").click()
    wait.until(lambda d: d.find_element(By.ID, "preview-variant-1").is_displayed() and variant_title() == "Hungry?",
               "variant B's preview shows its own title")
    check(not driver.find_element(By.ID, "preview").is_displayed(), "variant A's preview is in its own tab")
    steps.append("variant B's preview tab follows its title")
    shot("11-compose-experiment")


if __name__ == "__main__":
    sys.exit(main())
