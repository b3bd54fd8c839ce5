// A campaign's payload as a template: validated once, rendered per recipient with the values escaped in place.
import Pushbutton

// snippet.hide
func renderCampaign(validator: PayloadValidator) throws -> JSONWriter {
    // snippet.show
    var campaign = Payload.interactive(category: "message", title: "{{name}}", body: "Hi {{name}}, lunch?")
    campaign.addAction(
        ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.example.com/m/{{id}}/like"]),
        forButton: "like")
    campaign.actionArguments = ["id": "{{id}}"]  // a whole-value placeholder: the number stays a number
    let template = try PayloadTemplate(campaign, validator: validator)
    var writer = JSONWriter()
    try template.render(template.values(["id": 42, "name": "Anna"]), into: &writer)
    // snippet.hide
    return writer
}
